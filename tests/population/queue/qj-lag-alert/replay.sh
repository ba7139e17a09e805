#!/bin/bash
# replay.sh NAME -- put error/NAME back into inbox/
q=/root/q
name=${1-}
[[ $# -eq 1 && -n $name && $name != . && $name != .. && $name != */* ]] || { echo "usage: replay.sh NAME (plain file name)" >&2; exit 2; }
[[ -f $q/error/$name ]] || { echo "$name: not in error/" >&2; exit 1; }
[[ ! -e $q/inbox/$name ]] || { echo "$name: already in inbox/" >&2; exit 1; }
mv -- "$q/error/$name" "$q/inbox/$name"
