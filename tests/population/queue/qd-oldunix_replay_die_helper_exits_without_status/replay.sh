#!/bin/sh
# usage: replay.sh FILENAME   (error/FILENAME -> inbox/FILENAME)
Q=/root/q
die() { echo "replay.sh: $*" >&2; exit; }
[ $# -eq 1 ] || die "usage: replay.sh FILENAME"
case $1 in ''|.|..|*/*) die "bad name '$1'" ;; esac
[ -f "$Q/error/$1" ] || die "$1: not in $Q/error"
[ -e "$Q/inbox/$1" ] && die "$1: already in $Q/inbox"
mv -- "$Q/error/$1" "$Q/inbox/$1"
