#!/bin/bash
# replay.sh FILENAME : error/FILENAME -> inbox/ (under a flock on error/ so two replays don't race)
Q=/root/q
if [ "$#" -ne 1 ]; then
    echo "usage: replay.sh FILENAME" >&2
    exit 2
fi
case "$1" in
    */*) echo "replay.sh: FILENAME must be a bare name, not a path" >&2; exit 2 ;;
esac
if [ -e "$Q/error/$1" ]; then
    if [ -f "$Q/inbox/$1" ]; then
        echo "replay.sh: inbox/$1 already exists" >&2
        exit 1
    fi
    flock "$Q/error" mv "$Q/error/$1" "$Q/inbox/"
else
    echo "replay.sh: $1 not found in error/" >&2
    exit 1
fi
