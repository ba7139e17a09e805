#!/bin/bash
# replay.sh FILENAME : error/FILENAME -> inbox/FILENAME
Q=/root/q
f="$1"

if [ -z "$f" ] || [ "$f" != "$(basename -- "$f")" ] || [ "$f" = ".." ] || [ "$f" = "." ]; then
    echo "bad file name" >&2
    exit 1
fi
if [ ! -f "$Q/error/$f" ]; then
    echo "$f is not in error/" >&2
    exit 1
fi
mv "$Q/error/$f" "$Q/inbox/$f" || exit 1
echo "replayed $f"
exit 0
