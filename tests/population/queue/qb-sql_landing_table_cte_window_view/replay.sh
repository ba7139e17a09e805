#!/usr/bin/env bash
# replay.sh FILENAME : move error/FILENAME back to inbox/
set -u
Q=${LAB_ROOT:-/root}/q
name=${1-}
case $name in
    ""|.|..|*/*) echo "replay: invalid file name: '$name'" >&2; exit 2 ;;
esac
if [[ ! -f $Q/error/$name || -L $Q/error/$name ]]; then
    echo "replay: $name is not in error/" >&2
    exit 1
fi
if [[ -e $Q/inbox/$name ]]; then
    echo "replay: inbox/$name already exists" >&2
    exit 1
fi
mv -- "$Q/error/$name" "$Q/inbox/$name"
