#!/bin/bash
# replay.sh FILENAME -- error/FILENAME back to inbox/
root=${QUEUE_ROOT:-/root/q}
name=$1
if [[ -z $name || $name == */* || $name == . || $name == .. ]]; then
    echo "replay.sh: expected a plain file name, got '$name'" >&2
    exit 2
fi
if [[ ! -f $root/error/$name ]]; then
    echo "replay.sh: error/$name does not exist" >&2
    exit 1
fi
mv -n -- "$root/error/$name" "$root/inbox/$name"
[[ -e $root/inbox/$name && ! -e $root/error/$name ]] || exit 1
