#!/bin/sh
# replay.sh FILENAME   (POSIX sh; tested with dash)
Q=/root/q

if [ $# -ne 1 ]; then
    echo "usage: $0 FILENAME" >&2
    exit 2
fi
name=$1

# a bare file name only: nothing empty, no directories, no paths
case $name in
    ''|.|..|*/*)
        echo "replay: not a plain file name: '$name'" >&2
        exit 2
        ;;
esac

src=$Q/error/$name
dst=$Q/inbox/$name

if [ ! -f "$src" ] || [ -L "$src" ]; then
    echo "replay: error/$name does not exist" >&2
    exit 1
fi
if [ -e "$dst" ] || [ -L "$dst" ]; then
    echo "replay: inbox/$name already exists" >&2
    exit 1
fi

mv -- "$src" "$dst" || exit 1
echo "replayed $name"
