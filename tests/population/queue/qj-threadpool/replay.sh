#!/bin/sh
# replay.sh FILENAME -- move /root/q/error/FILENAME back to /root/q/inbox
Q=/root/q
[ $# -eq 1 ] || { echo "usage: replay.sh FILENAME" >&2; exit 2; }
name=$1
case $name in
    ''|.|..|*/*) echo "replay: not a plain file name: '$name'" >&2; exit 2 ;;
esac
src=$Q/error/$name
dst=$Q/inbox/$name
if [ ! -f "$src" ] || [ -L "$src" ]; then
    echo "replay: '$name' is not in error/" >&2; exit 1
fi
if [ -e "$dst" ]; then
    echo "replay: inbox/$name already exists" >&2; exit 1
fi
mv -- "$src" "$dst" || exit 1
echo "replayed $name"
