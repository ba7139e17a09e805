#!/bin/bash
# replay.sh FILENAME -- error/FILENAME -> inbox/FILENAME
Q=/root/q
if [[ $# -ne 1 ]]; then
    echo "usage: replay.sh FILENAME" >&2
    exit 2
fi
name=$1
if [[ -z $name || $name == */* || $name == . || $name == .. ]]; then
    echo "replay.sh: '$name' is not a file name" >&2
    exit 1
fi
if [[ ! -f $Q/error/$name ]]; then
    echo "replay.sh: no '$name' in error/" >&2
    exit 1
fi
if [[ -e $Q/inbox/$name ]]; then
    echo "replay.sh: '$name' is already in inbox/" >&2
    exit 1
fi
mv -- "$Q/error/$name" "$Q/inbox/$name"
