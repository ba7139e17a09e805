#!/bin/bash
# usage: replay.sh <file name in error/>
NAME="$1"
ERRDIR=/root/q/error
INBOX=/root/q/inbox

if [ -z "$NAME" ] || [[ "$NAME" == */* ]] || [ "$NAME" = "." ] || [ "$NAME" = ".." ]; then
    echo "invalid name: '$NAME'" >&2
    exit 1
fi
if [ ! -f "$ERRDIR/$NAME" ]; then
    echo "$NAME is not in error/" >&2
    exit 1
fi
mv "$ERRDIR/$NAME" "$INBOX/$NAME"
