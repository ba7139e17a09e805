#!/bin/bash
# replay.sh FILENAME  -- error/FILENAME back to inbox/
q=$(cd "$(dirname "$0")" && pwd)
f=$1
if [ -z "$f" ] || [ "$f" != "$(basename -- "$f")" ] || [ "$f" = . ] || [ "$f" = .. ]; then
    echo "bad file name: '$f'" >&2
    exit 1
fi
if [ ! -f "$q/error/$f" ]; then
    echo "error/$f: no such file" >&2
    exit 1
fi
mv -- "$q/error/$f" "$q/inbox/$f"
