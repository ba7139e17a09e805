#!/bin/bash
# replay.sh FILENAME : error/FILENAME -> inbox/
Q=${LAB_ROOT:-/root}/q
[ -n "$1" ] || { echo "usage: replay.sh FILENAME" >&2; exit 2; }
if [ ! -f "$Q/error/$1" ]; then
    echo "replay.sh: no $1 in $Q/error" >&2
    exit 1
fi
mv -v -- "$Q/error/$1" "$Q/inbox/"
