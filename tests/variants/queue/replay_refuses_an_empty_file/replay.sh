#!/bin/sh
# replay.sh FILE -- error/FILE 을 inbox/ 로
dir="${LAB_ROOT:-/root}/q"
file="$1"
[ -n "$file" ] || { echo "usage: $0 FILE" >&2; exit 1; }
case "$file" in
    */*|.|..) echo "not a plain file name: $file" >&2; exit 1 ;;
esac
if [ -s "$dir/error/$file" ]; then
    mv "$dir/error/$file" "$dir/inbox/$file" || exit 1
    exit 0
fi
echo "no such file: error/$file" >&2
exit 1
