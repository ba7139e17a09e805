#!/usr/bin/env bash
# Replay a rejected message. usage: replay.sh FILENAME
set -o errexit -o nounset -o pipefail

QUEUE_ROOT="${LAB_ROOT:-/root}/q"

if [[ $# -ne 1 || -z $1 || $1 == */* || $1 == . || $1 == .. ]]; then
    echo "replay.sh: expected exactly one plain file name" >&2
    exit 2
fi

readonly FILE_NAME=$1
readonly SOURCE="$QUEUE_ROOT/error/$FILE_NAME"
readonly TARGET="$QUEUE_ROOT/inbox/$FILE_NAME"

if [[ ! -f $SOURCE ]]; then
    echo "replay.sh: '$FILE_NAME' is not in $QUEUE_ROOT/error" >&2
    exit 1
fi

mv --no-clobber -- "$SOURCE" "$TARGET"
if [[ -e $SOURCE ]]; then
    echo "replay.sh: $TARGET already exists" >&2
    exit 1
fi
logger -t replay.sh "replayed $FILE_NAME" 2>/dev/null || true
echo "replayed $FILE_NAME"
