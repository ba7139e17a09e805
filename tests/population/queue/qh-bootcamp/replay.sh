#!/bin/bash
# Usage: replay.sh FILENAME
# Moves /root/q/error/FILENAME back to /root/q/inbox/.

QUEUE_DIR="/root/q"

if [ "$#" -ne 1 ] || [ -z "$1" ]; then
    echo "Usage: $0 FILENAME" >&2
    exit 2
fi

FILENAME="$1"

# only plain file names, no paths
if [[ "$FILENAME" == */* ]] || [ "$FILENAME" = "." ] || [ "$FILENAME" = ".." ]; then
    echo "Error: '$FILENAME' is not a file name" >&2
    exit 2
fi

if [ ! -f "$QUEUE_DIR/error/$FILENAME" ] || [ -L "$QUEUE_DIR/error/$FILENAME" ]; then
    echo "Error: '$FILENAME' not found in error/" >&2
    exit 1
fi

if [ -e "$QUEUE_DIR/inbox/$FILENAME" ]; then
    echo "Error: '$FILENAME' already exists in inbox/" >&2
    exit 1
fi

mv "$QUEUE_DIR/error/$FILENAME" "$QUEUE_DIR/inbox/$FILENAME"
echo "Replayed $FILENAME"
