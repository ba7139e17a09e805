#!/bin/sh
# replay.sh FILENAME -- put /root/q/error/FILENAME back into /root/q/inbox.
# Hard link first, then remove the error/ entry: the bytes are never copied,
# and ln refuses to clobber an inbox file of the same name.
Q=/root/q

if [ "$#" -ne 1 ]; then
    echo "usage: replay.sh FILENAME" >&2
    exit 2
fi
name=$1

case $name in
    ''|.|..|*/*)
        echo "replay.sh: '$name' is not a file name in error/" >&2
        exit 2 ;;
esac

src=$Q/error/$name
dst=$Q/inbox/$name

if [ ! -f "$src" ] || [ -L "$src" ]; then
    echo "replay.sh: no such file in error/: $name" >&2
    exit 1
fi

ln "$src" "$dst" || exit 1
rm -f "$src"
echo "replayed: $name"
