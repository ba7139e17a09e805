#!/bin/bash
# replay.sh FILENAME : error/FILENAME -> inbox/FILENAME
# ln then rm: ln fails if inbox already has that name, so nothing is ever overwritten
Q=/root/q
f="$1"
if [ "$#" -ne 1 ] || [ -z "$f" ] || [ "$f" = . ] || [ "$f" = .. ] || [[ "$f" == */* ]]; then
    echo "replay.sh: give the bare name of a file in $Q/error" >&2
    exit 2
fi
if [ ! -f "$Q/error/$f" ] || [ -L "$Q/error/$f" ]; then
    echo "replay.sh: $Q/error/$f: no such file" >&2
    exit 1
fi
ln -- "$Q/error/$f" "$Q/inbox/$f" || exit 1
rm -f -- "$Q/error/$f"
echo "replayed: $f"
