#!/bin/sh
# replay.sh FILENAME
Q=/root/q
case "$1" in
    "" | . | .. | */*) echo "replay.sh: give a file name from $Q/error" >&2; exit 1 ;;
esac
test -f "$Q/error/$1" || { echo "replay.sh: $1: not in error/" >&2; exit 1; }
mv "$Q/error/$1" "$Q/inbox/$1"
