#!/usr/bin/env bash
# usage: replay.sh FILE   (moves /root/q/error/FILE back to /root/q/inbox/)
Q=/root/q
f=${1-}
case $f in
    '' | . | .. | */*)
        echo "replay: bad file name: '$f'" >&2
        exit 64
        ;;
esac
if [[ ! -f $Q/error/$f || -L $Q/error/$f ]]; then
    echo "replay: error/$f not found" >&2
    exit 1
fi
if [[ -e $Q/inbox/$f ]]; then
    echo "replay: inbox/$f already exists" >&2
    exit 1
fi
mv -- "$Q/error/$f" "$Q/inbox/$f"
