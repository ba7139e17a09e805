#!/bin/bash
# replay.sh FILENAME
Q=/root/q
[[ $# -eq 1 && -n $1 && $1 != */* && $1 != . && $1 != .. ]] || { echo "replay.sh: need a plain file name" >&2; exit 2; }
[[ -f $Q/error/$1 && ! -L $Q/error/$1 ]] || { echo "replay.sh: error/$1 not found" >&2; exit 1; }
[[ ! -e $Q/inbox/$1 ]] || { echo "replay.sh: inbox/$1 exists" >&2; exit 1; }
mv -- "$Q/error/$1" "$Q/inbox/$1"
