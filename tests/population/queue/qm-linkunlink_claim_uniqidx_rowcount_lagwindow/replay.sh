#!/bin/bash
# replay.sh FILE -> move /root/q/error/FILE back to /root/q/inbox/FILE
set -u
Q=/root/q
if [ $# -ne 1 ]; then
    echo "usage: $0 FILE" >&2
    exit 2
fi
f=$1
case $f in
    ''|.|..|*/*) echo "replay: not a plain file name: '$f'" >&2; exit 2 ;;
esac
if [ ! -f "$Q/error/$f" ] || [ -L "$Q/error/$f" ]; then
    echo "replay: error/$f: no such file" >&2
    exit 1
fi
if [ -e "$Q/inbox/$f" ]; then
    echo "replay: inbox/$f already exists, refusing to overwrite" >&2
    exit 1
fi
mv -n -- "$Q/error/$f" "$Q/inbox/$f" || exit 1
# mv -n exits 0 even when it skipped; be sure
[ -e "$Q/error/$f" ] && { echo "replay: move failed" >&2; exit 1; }
echo "replayed $f"
