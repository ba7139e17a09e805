#!/usr/bin/env bash
# replay.sh <file-name>: error/<file-name> -> inbox/<file-name>
set -u
Q=/root/q
name=${1-}
if [[ $# -ne 1 || -z $name || $name == . || $name == .. || $name != "${name##*/}" ]]; then
    echo "replay: need a bare file name from $Q/error" >&2
    exit 64
fi
if [[ ! -f $Q/error/$name || -L $Q/error/$name ]]; then
    echo "replay: $name not found in $Q/error" >&2
    exit 66
fi
if [[ -e $Q/inbox/$name ]]; then
    echo "replay: $Q/inbox/$name exists, refusing to overwrite" >&2
    exit 73
fi
exec mv -- "$Q/error/$name" "$Q/inbox/$name"
