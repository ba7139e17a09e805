#!/bin/bash
# replay.sh FILENAME : error/FILENAME -> inbox/FILENAME, nothing else
set -u
Q=/root/q
if [ "$#" -ne 1 ]; then
    echo "usage: $0 FILENAME" >&2
    exit 2
fi
NAME="$1"
if [ -z "$NAME" ] || [ "$NAME" = "." ] || [ "$NAME" = ".." ] || [[ "$NAME" == */* ]]; then
    echo "refusing: '$NAME' is not a bare file name" >&2
    exit 2
fi
SRC="$Q/error/$NAME"
DST="$Q/inbox/$NAME"
if [ -L "$SRC" ] || [ ! -f "$SRC" ]; then
    echo "refusing: '$NAME' is not a file in $Q/error" >&2
    exit 1
fi
if [ -e "$DST" ]; then
    echo "refusing: '$DST' already exists" >&2
    exit 1
fi
mv -- "$SRC" "$DST" || exit 1
echo "replayed $NAME"
exit 0
