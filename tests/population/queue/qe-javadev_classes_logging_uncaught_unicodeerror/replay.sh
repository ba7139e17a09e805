#!/bin/bash
# Usage: replay.sh FILENAME
set -u
readonly QUEUE_ROOT="/root/q"

if [ "$#" -ne 1 ]; then
    echo "Usage: $0 FILENAME" >&2
    exit 2
fi
FILE_NAME="$1"

case "$FILE_NAME" in
    ""|"."|".."|*/*)
        echo "ERROR: invalid file name '$FILE_NAME'" >&2
        exit 2
        ;;
esac

SOURCE="$QUEUE_ROOT/error/$FILE_NAME"
TARGET="$QUEUE_ROOT/inbox/$FILE_NAME"

if [ ! -f "$SOURCE" ]; then
    echo "ERROR: $FILE_NAME not found in error/" >&2
    exit 1
fi
if [ -e "$TARGET" ]; then
    echo "ERROR: $FILE_NAME already exists in inbox/" >&2
    exit 1
fi
mv -- "$SOURCE" "$TARGET" || exit 1
echo "INFO: $FILE_NAME moved back to inbox/"
exit 0
