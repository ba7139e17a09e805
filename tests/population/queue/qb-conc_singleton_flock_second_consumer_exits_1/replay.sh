#!/bin/bash
# replay.sh FILENAME
set -u
Q=/root/q
name=${1-}
if [[ -z $name || $name == */* || $name == . || $name == .. ]]; then
    echo "replay: bad name '$name'" >&2; exit 2
fi
exec 9<"$Q/error"
flock 9
if [[ ! -f $Q/error/$name ]]; then echo "replay: $name not in error/" >&2; exit 1; fi
if [[ -e $Q/inbox/$name ]]; then echo "replay: inbox/$name exists" >&2; exit 1; fi
mv -- "$Q/error/$name" "$Q/inbox/$name"
