#!/bin/bash
# usage: replay.sh FILENAME   -- error/FILENAME goes back to inbox/
Q=/root/q
name=$1
case $name in
    "" | . | .. | */*) echo "replay: not a plain file name: '$name'" >&2; exit 2 ;;
esac
if [ ! -f "$Q/error/$name" ]; then
    echo "replay: error/$name does not exist" >&2
    exit 1
fi
if [ -e "$Q/inbox/$name" ]; then
    echo "replay: inbox/$name already exists" >&2
    exit 1
fi
mv "$Q/error/$name" "$Q/inbox/$name"
