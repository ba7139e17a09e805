#!/bin/bash
# replay.sh FILENAME  -> moves /root/q/error/FILENAME back to /root/q/inbox
QUEUE=/root/q
if [ "$#" -ne 1 ]; then
    echo "usage: replay.sh FILENAME" >&2
    exit 2
fi
file="$1"
case "$file" in
    ""|.|..|*/*)
        echo "replay.sh: '$file' is not a plain file name" >&2
        exit 1 ;;
esac
if [ ! -f "$QUEUE/error/$file" ]; then
    echo "replay.sh: $file is not in $QUEUE/error" >&2
    exit 1
fi
if [ -e "$QUEUE/inbox/$file" ]; then
    echo "replay.sh: $QUEUE/inbox/$file already exists" >&2
    exit 1
fi
mv -- "$QUEUE/error/$file" "$QUEUE/inbox/$file"
