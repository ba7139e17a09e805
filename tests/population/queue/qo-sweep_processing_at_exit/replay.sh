#!/bin/sh
# replay.sh NAME  - put error/NAME back into inbox/
Q=/root/q
case "${1-}" in
    ""|.|..|*/*) echo "replay.sh: expected a file name from $Q/error" >&2; exit 2 ;;
esac
[ "$#" -eq 1 ] || exit 2
if [ -f "$Q/error/$1" ] && [ ! -e "$Q/inbox/$1" ]; then
    mv -- "$Q/error/$1" "$Q/inbox/$1"
else
    echo "replay.sh: $Q/error/$1 not found (or already in inbox)" >&2
    exit 1
fi
