#!/bin/sh
# replay.sh FILENAME
Q="${LAB_ROOT:-/root}/q"
case "$1" in
    ''|.|..|*/*) echo "usage: replay.sh FILENAME (a file name inside $Q/error)" >&2; exit 2 ;;
esac
[ -f "$Q/error/$1" ] || { echo "no such file in error/: $1" >&2; exit 1; }
mv "$Q/error/$1" "$Q/inbox/$1"
