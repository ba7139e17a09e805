#!/bin/sh
# replay.sh FILE : error/FILE -> inbox/FILE
Q=/root/q
[ $# -eq 1 ] && [ -n "$1" ] || { echo "usage: $0 FILE" >&2; exit 2; }
errdir=$(realpath -e -- "$Q/error") || exit 1
src=$(realpath -e -- "$Q/error/$1" 2>/dev/null) || { echo "not in error/: $1" >&2; exit 1; }
if [ "$(dirname -- "$src")" != "$errdir" ] || [ ! -f "$src" ]; then
    echo "refused: $1" >&2
    exit 1
fi
mv -n -- "$src" "$Q/inbox/"
if [ -e "$src" ]; then
    echo "inbox already has $1" >&2
    exit 1
fi
