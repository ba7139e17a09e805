#!/usr/bin/env bash
# replay.sh - put one poison message back into the inbox after fixing the cause
#
# usage: replay.sh FILENAME
#   FILENAME  plain file name inside /root/q/error (no directories)
# exit: 0 moved, 1 not found / would overwrite, 2 usage error
set -u
Q=/root/q

usage() {
    echo "usage: $(basename "$0") FILENAME" >&2
    exit 2
}

if [ $# -ne 1 ]; then
    echo "replay.sh: expected 1 argument, got $#" >&2
    usage
fi
name=$1
if [ -z "$name" ]; then
    echo "replay.sh: empty file name" >&2
    usage
fi
if [[ $name == */* ]]; then
    echo "replay.sh: '$name' contains a '/', give the bare file name" >&2
    usage
fi
if [ "$name" = . ] || [ "$name" = .. ]; then
    usage
fi
if [ ! -f "$Q/error/$name" ] || [ -L "$Q/error/$name" ]; then
    echo "replay.sh: '$name' is not in $Q/error" >&2
    exit 1
fi
if [ -e "$Q/inbox/$name" ]; then
    echo "replay.sh: '$Q/inbox/$name' already exists, refusing to overwrite" >&2
    exit 1
fi
mv -- "$Q/error/$name" "$Q/inbox/$name" || exit 1
echo "replayed: $name"
exit 0
