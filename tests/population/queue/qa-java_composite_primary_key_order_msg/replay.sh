#!/usr/bin/env bash
# usage: replay.sh FILENAME
set -euo pipefail
readonly QUEUE_DIR=/root/q
if [[ $# -ne 1 || -z $1 || $1 == */* || $1 == . || $1 == .. ]]; then
    echo "replay.sh: a plain file name is required" >&2
    exit 2
fi
readonly SOURCE="$QUEUE_DIR/error/$1"
if [[ ! -f $SOURCE ]]; then
    echo "replay.sh: $1 not found in error/" >&2
    exit 1
fi
mv -- "$SOURCE" "$QUEUE_DIR/inbox/$1"
echo "replayed $1"
