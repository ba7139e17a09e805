#!/bin/bash
# replay.sh FILENAME - move error/FILENAME back into inbox/
Q=/root/q
name=$1

# only a plain file name, nothing with a path in it
if [ -z "$name" ] || [ "$name" != "$(basename -- "$name")" ]; then
    echo "replay: invalid name: '$name'" >&2
    exit 1
fi
if [ ! -f "$Q/error/$name" ]; then
    echo "replay: $name is not in error/" >&2
    exit 1
fi
mv -- "$Q/error/$name" "$Q/inbox/$name"
