#!/bin/bash
# replay.sh FILENAME -- error/FILENAME back to inbox/, also recorded in the ledger
Q=/root/q
f=${1-}
if [ $# -ne 1 ] || [ -z "$f" ] || [ "$f" != "$(basename -- "$f")" ] || [ "$f" = . ] || [ "$f" = .. ]; then
    echo "replay.sh: expected one file name out of $Q/error" >&2
    exit 2
fi
if [ ! -f "$Q/error/$f" ] || [ -L "$Q/error/$f" ] || [ -e "$Q/inbox/$f" ]; then
    echo "replay.sh: $f is not in $Q/error (or is already in inbox)" >&2
    exit 1
fi
mv -n -- "$Q/error/$f" "$Q/inbox/$f" && [ ! -e "$Q/error/$f" ]
