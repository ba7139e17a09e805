#!/bin/bash
# replay.sh FILE  -- error/FILE back to inbox/
Q=/root/q
if [ $# -ne 1 ]; then echo "usage: replay.sh FILE" >&2; exit 2; fi
case "$1" in
    ""|.|..|*/*) echo "replay.sh: '$1' is not a plain file name" >&2; exit 2 ;;
esac
if [ ! -f "$Q/error/$1" ]; then echo "replay.sh: $1 is not in error/" >&2; exit 1; fi
if [ -e "$Q/inbox/$1" ]; then echo "replay.sh: $1 already in inbox/" >&2; exit 1; fi
mv -- "$Q/error/$1" "$Q/inbox/$1"
