#!/usr/bin/env bash
# replay.sh FILENAME : error/FILENAME -> inbox/FILENAME
set -u
Q=/root/q
name=${1-}
if [[ $# -ne 1 || -z $name || $name == */* || $name == . || $name == .. ]]; then
    echo "replay.sh: need one plain file name from $Q/error" >&2
    exit 2
fi
if [[ ! -f $Q/error/$name || -L $Q/error/$name ]]; then
    echo "replay.sh: '$name' is not in $Q/error" >&2
    exit 1
fi
if [[ -e $Q/inbox/$name ]]; then
    echo "replay.sh: '$name' already waiting in inbox" >&2
    exit 1
fi
mv -- "$Q/error/$name" "$Q/inbox/$name"
