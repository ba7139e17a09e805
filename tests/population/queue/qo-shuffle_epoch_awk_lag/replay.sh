#!/bin/bash
# replay.sh FILENAME
q=/root/q
f=$1
[ $# -eq 1 ] && [ -n "$f" ] && [ "$(basename -- "$f")" = "$f" ] && [ "$f" != . ] && [ "$f" != .. ] || {
    echo "replay.sh: need one plain file name" >&2; exit 2; }
[ -f "$q/error/$f" ] && [ ! -L "$q/error/$f" ] || { echo "replay.sh: no error/$f" >&2; exit 1; }
[ ! -e "$q/inbox/$f" ] || { echo "replay.sh: inbox/$f exists" >&2; exit 1; }
exec mv -- "$q/error/$f" "$q/inbox/$f"
