#!/bin/bash
# replay.sh FILENAME -> error/FILENAME back to inbox/
Q=${LAB_ROOT:-/root}/q
f=$1
if [ -z "$f" ] || [ "$(basename -- "$f")" != "$f" ] || [ "$f" = "." ] || [ "$f" = ".." ]; then
    echo "replay.sh: invalid name" >&2; exit 2
fi
if [ ! -f "$Q/error/$f" ]; then echo "replay.sh: $f is not in error/" >&2; exit 1; fi
if [ -e "$Q/inbox/$f" ]; then echo "replay.sh: inbox/$f exists" >&2; exit 1; fi
mv "$Q/error/$f" "$Q/inbox/$f"
