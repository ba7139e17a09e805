#!/bin/bash
# replay.sh FILENAME
Q=/root/q
name=$1
case $name in
    '' | . | .. | */* )
        echo "replay.sh: invalid name: '$name'" >&2
        exit 2 ;;
esac
if ! [ -f "$Q/error/$name" ]; then
    echo "replay.sh: $name is not in $Q/error" >&2
    exit 1
fi
mv "$Q/error/$name" "$Q/inbox/" && echo "moved $name back to inbox"
