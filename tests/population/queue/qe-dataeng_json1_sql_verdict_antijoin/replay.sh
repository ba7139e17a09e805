#!/usr/bin/env bash
# usage: replay.sh FILENAME   -- moves /root/q/error/FILENAME back to /root/q/inbox/
set -u
Q=/root/q
name=${1-}

case $name in
    ''|.|..|*/*) echo "replay: invalid file name: '$name'" >&2; exit 2 ;;
esac
if [ ! -f "$Q/error/$name" ] || [ -L "$Q/error/$name" ]; then
    echo "replay: not in error/: $name" >&2
    exit 1
fi
if [ -e "$Q/inbox/$name" ]; then
    echo "replay: inbox/$name already exists, refusing to overwrite" >&2
    exit 1
fi
mv -n -- "$Q/error/$name" "$Q/inbox/$name"
