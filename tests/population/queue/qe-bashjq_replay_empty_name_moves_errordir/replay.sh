#!/bin/bash
# replay.sh FILENAME : error/FILENAME -> inbox/
Q=/root/q
[ $# -eq 1 ] || { echo "usage: replay.sh FILENAME" >&2; exit 2; }
f="$1"
case "$f" in
  */*|.|..) echo "just a file name please: $f" >&2; exit 2 ;;
esac
if [ ! -e "$Q/error/$f" ]; then
  echo "not in error/: $f" >&2
  exit 1
fi
mv "$Q/error/$f" "$Q/inbox/"
