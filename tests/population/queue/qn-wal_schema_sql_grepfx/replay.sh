#!/bin/sh
# replay.sh NAME -- only a name that is literally listed in error/ is accepted
Q=/root/q
if ! ls -A "$Q/error" | grep -Fxq -- "$1"; then
    echo "replay: '$1' is not in $Q/error" >&2
    exit 1
fi
[ -f "$Q/error/$1" ] || { echo "replay: '$1' is not a file" >&2; exit 1; }
exec mv -- "$Q/error/$1" "$Q/inbox/"
