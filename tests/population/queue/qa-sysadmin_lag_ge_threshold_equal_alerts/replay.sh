#!/bin/bash
# replay.sh FILENAME
Q=/root/q
F=${1:-}
case "$F" in ""|*/*|.|..) echo "replay.sh: bad name: '$F'" >&2; exit 2;; esac
[ -f "$Q/error/$F" ] || { echo "replay.sh: $F not in error/" >&2; exit 1; }
mv -- "$Q/error/$F" "$Q/inbox/$F"
