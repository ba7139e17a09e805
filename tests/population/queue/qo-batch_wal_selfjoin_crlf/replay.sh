#!/bin/bash
# replay.sh FILENAME -> error/FILENAME back into inbox/
Q=/root/q
name=${1-}
if [[ $# -ne 1 || -z $name || $name == */* || $name == . || $name == .. ]]; then
    echo "replay.sh: give the bare file name of a file in $Q/error" >&2
    exit 2
fi
if [[ ! -f $Q/error/$name || -L $Q/error/$name ]]; then
    echo "replay.sh: $Q/error/$name does not exist" >&2
    exit 1
fi
if [[ -e $Q/inbox/$name ]]; then
    echo "replay.sh: $Q/inbox/$name exists already" >&2
    exit 1
fi
mv -T -- "$Q/error/$name" "$Q/inbox/$name"
