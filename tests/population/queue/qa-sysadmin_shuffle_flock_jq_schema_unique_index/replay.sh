#!/bin/bash
# replay.sh FILENAME -- error/FILENAME back to inbox/
Q=${LAB_ROOT:-/root}/q
f=$1
[[ -n $f && $f != */* && $f != . && $f != .. ]] || { echo "replay.sh: bad name '$f'" >&2; exit 2; }
[[ -f $Q/error/$f ]] || { echo "replay.sh: error/$f: not there" >&2; exit 1; }
mv -T -n -- "$Q/error/$f" "$Q/inbox/$f"
[[ -e $Q/error/$f ]] && { echo "replay.sh: inbox/$f exists, left it alone" >&2; exit 1; }
exit 0
