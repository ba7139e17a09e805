#!/bin/bash
# replay.sh FILENAME
# Moves /root/q/error/FILENAME back to /root/q/inbox/FILENAME.
# Exit 0 on success; non-zero (and nothing changed) when the file is not in error/.

readonly QUEUE_ROOT="/root/q"

if [[ $# -ne 1 ]]; then
    echo "usage: replay.sh FILENAME" >&2
    exit 2
fi
readonly FILE_NAME="$1"

if [[ -z "$FILE_NAME" || "$FILE_NAME" == "." || "$FILE_NAME" == ".." || "$FILE_NAME" == */* ]]; then
    echo "replay.sh: invalid file name '$FILE_NAME'" >&2
    exit 2
fi

readonly SOURCE_PATH="$QUEUE_ROOT/error/$FILE_NAME"
readonly TARGET_PATH="$QUEUE_ROOT/inbox/$FILE_NAME"

if [[ ! -f "$SOURCE_PATH" || -L "$SOURCE_PATH" ]]; then
    echo "replay.sh: '$FILE_NAME' is not in error/" >&2
    exit 1
fi
if [[ -e "$TARGET_PATH" ]]; then
    echo "replay.sh: '$FILE_NAME' already exists in inbox/" >&2
    exit 1
fi

mv -- "$SOURCE_PATH" "$TARGET_PATH"
