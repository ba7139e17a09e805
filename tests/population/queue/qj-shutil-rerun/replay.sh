#!/usr/bin/env bash
set -euo pipefail
readonly Q=/root/q
if [[ $# -ne 1 ]]; then
    echo "usage: $(basename "$0") FILENAME" >&2
    exit 2
fi
name=$1
if [[ -z $name || $name == */* || $name == . || $name == .. ]]; then
    echo "replay: '$name' is not a plain file name" >&2
    exit 2
fi
if [[ ! -f $Q/error/$name ]]; then
    echo "replay: '$name' is not in $Q/error" >&2
    exit 1
fi
if [[ -e $Q/inbox/$name ]]; then
    echo "replay: '$name' already in $Q/inbox" >&2
    exit 1
fi
mv -- "$Q/error/$name" "$Q/inbox/$name"
echo "replayed: $name"
