#!/bin/sh
# replay.sh FILE - put /root/q/error/FILE back into /root/q/inbox
# FILE must be a plain name that exists in error/, otherwise nothing moves and exit != 0
Q=/root/q
[ $# -eq 1 ] || { echo "usage: $0 FILE" >&2; exit 2; }
case $1 in
    ''|.|..|*/*) echo "$0: not a plain file name: '$1'" >&2; exit 2 ;;
esac
if [ ! -f "$Q/error/$1" ] || [ -h "$Q/error/$1" ]; then
    echo "$0: error/$1: no such file" >&2
    exit 1
fi
if [ -e "$Q/inbox/$1" ] || [ -h "$Q/inbox/$1" ]; then
    echo "$0: inbox/$1 already there, not overwriting" >&2
    exit 1
fi
exec mv -- "$Q/error/$1" "$Q/inbox/$1"
