#!/bin/bash
# replay.sh FILENAME  -- put error/FILENAME back into inbox/
Q=${LAB_ROOT:-/root}/q
f=${1-}
case $f in
    ''|.|..|*/*) echo "replay: bad file name '$f'" >&2; exit 64 ;;
esac
if [ ! -f "$Q/error/$f" ]; then
    echo "replay: $f is not in $Q/error" >&2; exit 66
fi
if [ -e "$Q/inbox/$f" ]; then
    echo "replay: $Q/inbox/$f already exists, not overwriting" >&2; exit 73
fi
mv -- "$Q/error/$f" "$Q/inbox/$f" || exit 1
echo "replayed $f"
