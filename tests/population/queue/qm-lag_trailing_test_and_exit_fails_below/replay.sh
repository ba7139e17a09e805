#!/bin/bash
# replay.sh FILE : error/FILE -> inbox/FILE
Q=/root/q
[ $# -eq 1 ] || { echo "usage: replay.sh FILE" >&2; exit 2; }
case $1 in ''|.|..|*/*) echo "bad name: $1" >&2; exit 2;; esac
[ -f "$Q/error/$1" ] || { echo "not in error/: $1" >&2; exit 1; }
[ -e "$Q/inbox/$1" ] && { echo "inbox/$1 exists" >&2; exit 1; }
mv -- "$Q/error/$1" "$Q/inbox/$1"
