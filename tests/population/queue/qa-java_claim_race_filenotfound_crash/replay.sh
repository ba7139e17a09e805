#!/usr/bin/env bash
# replay.sh FILENAME -- move error/FILENAME back to inbox/
set -euo pipefail
readonly QUEUE_DIR="${LAB_ROOT:-/root}/q"
readonly NAME="${1:-}"
if [[ -z $NAME || $NAME == */* || $NAME == . || $NAME == .. ]]; then
    echo "replay.sh: invalid file name '$NAME'" >&2
    exit 2
fi
if [[ ! -f "$QUEUE_DIR/error/$NAME" ]]; then
    echo "replay.sh: '$NAME' is not in error/" >&2
    exit 1
fi
mv -- "$QUEUE_DIR/error/$NAME" "$QUEUE_DIR/inbox/$NAME"
echo "replayed $NAME"
