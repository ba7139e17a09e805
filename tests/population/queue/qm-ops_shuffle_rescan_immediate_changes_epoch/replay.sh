#!/bin/bash
# replay.sh <file name in /root/q/error>
# Moves it back to /root/q/inbox. Anything that doesn't resolve to a file sitting
# directly in error/ is refused and nothing is touched.
Q=/root/q
if [[ $# -ne 1 || -z $1 ]]; then
    echo "usage: replay.sh <file name>" >&2
    exit 64
fi
name=$1
src=$(realpath -m -- "$Q/error/$name")
if [[ $(dirname -- "$src") != "$Q/error" || $(basename -- "$src") != "$name" ]]; then
    echo "replay: '$name' is not a file directly in $Q/error" >&2
    exit 65
fi
if [[ ! -f $src || -L $Q/error/$name ]]; then
    echo "replay: $Q/error/$name not found, queue untouched" >&2
    exit 66
fi
if [[ -e $Q/inbox/$name ]]; then
    echo "replay: $Q/inbox/$name already exists, queue untouched" >&2
    exit 73
fi
mv -- "$src" "$Q/inbox/$name" || exit 74
echo "$(date '+%F %T') replayed $name" >&2
