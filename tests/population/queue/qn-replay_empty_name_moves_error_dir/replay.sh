#!/bin/bash
# ./replay.sh FILE : error/FILE -> inbox/
Q=/root/q
name="$1"
case "$name" in
    */*) echo "replay: no paths, just a file name" >&2; exit 2 ;;
esac
if [ ! -e "$Q/error/$name" ]; then
    echo "replay: $name is not in error/" >&2
    exit 1
fi
mv "$Q/error/$name" "$Q/inbox/"
echo "replayed $name"
