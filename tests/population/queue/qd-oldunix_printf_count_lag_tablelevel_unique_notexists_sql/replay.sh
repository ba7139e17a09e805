#!/bin/sh
# replay.sh FILENAME -- put /root/q/error/FILENAME back into /root/q/inbox
Q=/root/q
[ $# -eq 1 ] || { echo "usage: $0 FILENAME" >&2; exit 2; }
name=$1
case $name in
    ''|.|..|*/*) echo "$0: bad file name: '$name'" >&2; exit 1 ;;
esac
src=$Q/error/$name
dst=$Q/inbox/$name
if [ ! -f "$src" ] || [ -L "$src" ]; then
    echo "$0: not in error/: $name" >&2
    exit 1
fi
if [ -e "$dst" ]; then
    echo "$0: inbox/$name already exists, not overwriting" >&2
    exit 1
fi
mv -- "$src" "$dst"
