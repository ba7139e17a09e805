#!/usr/bin/env bash
# replay.sh FILENAME : error/FILENAME -> inbox/FILENAME, nothing else, ever.
set -euo pipefail
Q=/root/q

if [[ $# -ne 1 ]]; then
    echo "usage: $0 FILENAME" >&2
    exit 2
fi
name=$1
case $name in
    ''|.|..|*/*)
        echo "refusing name: '$name'" >&2
        exit 2 ;;
esac
src="$Q/error/$name"
dst="$Q/inbox/$name"
if [[ ! -f $src || -L $src ]]; then
    echo "not in error/: $name" >&2
    exit 1
fi
if [[ -e $dst || -L $dst ]]; then
    echo "inbox/ already has $name, not overwriting" >&2
    exit 1
fi
# same filesystem: rename(2) is atomic, bytes untouched
mv -T -- "$src" "$dst"
sync -f "$Q/inbox" 2>/dev/null || true
exit 0
