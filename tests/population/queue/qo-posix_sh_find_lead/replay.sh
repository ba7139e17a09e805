#!/bin/sh
# replay.sh FILENAME : move error/FILENAME back to inbox/
Q=/root/q
if [ "$#" -ne 1 ]; then
    echo "usage: $0 FILENAME" >&2
    exit 2
fi
name=$1
case $name in
    ''|.|..|*/*)
        echo "replay.sh: '$name' is not a file name in error/" >&2
        exit 2 ;;
esac
if [ ! -f "$Q/error/$name" ] || [ -L "$Q/error/$name" ]; then
    echo "replay.sh: error/$name not found" >&2
    exit 1
fi
if [ -e "$Q/inbox/$name" ]; then
    echo "replay.sh: inbox/$name already exists, not overwriting" >&2
    exit 1
fi
mv -- "$Q/error/$name" "$Q/inbox/$name" || exit 1
echo "replayed $name"
