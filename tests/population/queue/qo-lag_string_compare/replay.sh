#!/bin/bash
# replay.sh <file name>
Q=/root/q
name=$1
if [[ $# -ne 1 || -z $name || $name == */* || $name == . || $name == .. ]]; then
    echo "usage: replay.sh <file name in $Q/error>" >&2
    exit 2
fi
if [[ ! -f $Q/error/$name ]]; then
    echo "$name is not in $Q/error" >&2
    exit 1
fi
mv -- "$Q/error/$name" "$Q/inbox/$name" && echo "replayed: $name"
