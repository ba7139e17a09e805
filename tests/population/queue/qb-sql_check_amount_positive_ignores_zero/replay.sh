#!/bin/bash
# replay.sh FILENAME
Q=/root/q
n="$1"
case "$n" in ""|.|..|*/*) echo "bad name" >&2; exit 2 ;; esac
[ -f "$Q/error/$n" ] || { echo "$n not in error/" >&2; exit 1; }
[ -e "$Q/inbox/$n" ] && { echo "inbox/$n exists" >&2; exit 1; }
mv "$Q/error/$n" "$Q/inbox/$n"
