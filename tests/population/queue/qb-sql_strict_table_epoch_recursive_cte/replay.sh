#!/bin/sh
# replay.sh FILENAME -- put error/FILENAME back into inbox/ (nothing else moves)
Q=/root/q
f=$1
if [ $# -ne 1 ] || [ -z "$f" ]; then echo "usage: $0 FILENAME" >&2; exit 2; fi
case "$f" in
    */*|.|..) echo "only a bare file name from error/ is allowed" >&2; exit 2 ;;
esac
[ -f "$Q/error/$f" ] || { echo "not in error/: $f" >&2; exit 1; }
[ ! -e "$Q/inbox/$f" ] || { echo "inbox/$f already exists, refusing to overwrite" >&2; exit 1; }
exec mv "$Q/error/$f" "$Q/inbox/$f"
