#!/bin/bash
# replay.sh - move a file from error back to inbox
# https://stackoverflow.com/questions/638975/how-do-i-tell-if-a-regular-file-does-not-exist-in-bash

ERROR_DIR="/root/q/error"
INBOX_DIR="/root/q/inbox"

if [ -z "$1" ]; then
    echo "Usage: $0 <filename>"
    exit 1
fi

if [ ! -f "$ERROR_DIR/$1" ]; then
    echo "File $1 not found in $ERROR_DIR"
    exit 1
fi

mv "$ERROR_DIR/$1" "$INBOX_DIR/"
echo "Replayed $1"
exit 0
