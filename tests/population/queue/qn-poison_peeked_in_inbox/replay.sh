#!/bin/sh
Q=/root/q
f=$1
case "$f" in
    ''|.|..|*/*) echo "replay.sh: invalid file name" >&2; exit 2 ;;
esac
[ -f "$Q/error/$f" ] || { echo "replay.sh: $f: not in error/" >&2; exit 1; }
mv -- "$Q/error/$f" "$Q/inbox/$f"
