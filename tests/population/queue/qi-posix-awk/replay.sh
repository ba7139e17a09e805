#!/bin/sh
# replay.sh FILENAME -- put error/FILENAME back into inbox/
Q=/root/q
[ $# -eq 1 ] || { echo "usage: $0 FILENAME" >&2; exit 2; }
name=$1
case $name in
    ''|.|..|*/*) echo "$0: bad file name: '$name'" >&2; exit 2 ;;
esac
[ -f "$Q/error/$name" ] || { echo "$0: $name is not in $Q/error" >&2; exit 1; }
[ -e "$Q/inbox/$name" ] && { echo "$0: $Q/inbox/$name already exists" >&2; exit 1; }
mv "$Q/error/$name" "$Q/inbox/$name" || exit 1
echo "replayed $name"
