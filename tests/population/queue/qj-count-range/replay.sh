#!/bin/bash
# replay.sh <file name in /root/q/error>
f="$1"
if [ "$#" -ne 1 ] || [ -z "$f" ] || [ "$f" != "$(basename -- "$f")" ] || [ "$f" = "." ] || [ "$f" = ".." ]; then
    echo "usage: replay.sh <file name in /root/q/error>" >&2
    exit 2
fi
if [ ! -f "/root/q/error/$f" ]; then
    echo "not in error/: $f" >&2
    exit 1
fi
if [ -e "/root/q/inbox/$f" ]; then
    echo "inbox already has $f" >&2
    exit 1
fi
mv "/root/q/error/$f" "/root/q/inbox/$f"
