#!/bin/bash
# replay.sh FILENAME: error/FILENAME -> inbox/FILENAME
Q="${LAB_ROOT:-/root}/q"
file="$1"
if [[ -z $file || $file == */* || $file == . || $file == .. ]]; then
    echo "replay.sh: give a file name from $Q/error" >&2
    exit 64
fi
if [[ ! -f $Q/error/$file ]]; then
    echo "replay.sh: $file is not in error/" >&2
    exit 1
fi
if [[ -e $Q/inbox/$file ]]; then
    echo "replay.sh: inbox/$file exists already" >&2
    exit 1
fi
mv -- "$Q/error/$file" "$Q/inbox/$file" || exit 1
echo "replayed $file"
