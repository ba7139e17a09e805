#!/bin/bash
# replay.sh FILENAME -- error/FILENAME back to inbox/, under a lock on error/
# so that two replays of the same name cannot both "succeed".
Q=/root/q
if [ $# -ne 1 ]; then
    echo "usage: replay.sh FILENAME" >&2
    exit 2
fi
name=$1
case $name in
    ''|.|..|*/*) echo "replay.sh: not a plain file name: '$name'" >&2; exit 1 ;;
esac
(
    flock 9 || exit 1
    if [ ! -f "$Q/error/$name" ]; then
        echo "replay.sh: '$name' is not in $Q/error" >&2
        exit 1
    fi
    if [ -e "$Q/inbox/$name" ]; then
        echo "replay.sh: '$name' already waits in $Q/inbox" >&2
        exit 1
    fi
    mv -- "$Q/error/$name" "$Q/inbox/$name"
) 9<"$Q/error"
