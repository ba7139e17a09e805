#!/bin/bash
# replay.sh FILENAME : error/FILENAME -> inbox/
Q=/root/q
name=$1

if [ -z "$name" ]; then
    echo "usage: replay.sh FILENAME" >&2
    exit 2
fi
case $name in
    */*) echo "replay.sh: give a file name, not a path" >&2; exit 2 ;;
esac

# what is in error/ under that name?
found=$(find "$Q/error" -mindepth 1 -maxdepth 1 -type f -name "$name" | wc -l)
if [ "$found" -eq 0 ]; then
    echo "replay.sh: $name not in error/" >&2
    exit 1
fi

# mv -n: never overwrite something already waiting in inbox/
find "$Q/error" -mindepth 1 -maxdepth 1 -type f -name "$name" -print0 \
    | xargs -0 -r mv -n -t "$Q/inbox" --

# mv -n is silent when it skips: check it really left error/
left=$(find "$Q/error" -mindepth 1 -maxdepth 1 -type f -name "$name" | wc -l)
[ "$left" -eq 0 ]
