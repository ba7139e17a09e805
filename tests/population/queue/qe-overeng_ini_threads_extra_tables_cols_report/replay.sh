#!/usr/bin/env bash
# replay.sh FILENAME -- move error/FILENAME back into inbox/ (bytes untouched)
#   exit 0  moved
#   exit 1  FILENAME is not a regular file in error/ (queue untouched)
#   exit 2  inbox/ already has FILENAME (queue untouched)
#   exit 64 usage: FILENAME must be a bare file name
set -euo pipefail
Q=${QUEUE_BASE:-/root/q}

[[ $# -eq 1 ]] || { echo "usage: ${0##*/} FILENAME" >&2; exit 64; }
name=$1
if [[ -z $name || $name == */* || $name == . || $name == .. ]]; then
    echo "${0##*/}: '$name' is not a bare file name" >&2
    exit 64
fi
src=$Q/error/$name
dst=$Q/inbox/$name
if [[ ! -f $src || -L $src ]]; then
    echo "${0##*/}: error/$name: not found" >&2
    exit 1
fi
if [[ -e $dst ]]; then
    echo "${0##*/}: inbox/$name already exists" >&2
    exit 2
fi
mv -n -- "$src" "$dst"
[[ -e $src ]] && { echo "${0##*/}: move failed" >&2; exit 1; }
echo "replayed $name" >&2
