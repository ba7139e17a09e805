#!/bin/bash
# replay.sh <file>  : error/<file> -> inbox/<file>
f="$1"
if [ "$#" -ne 1 ] || [ -z "$f" ] || [ "$(basename -- "$f")" != "$f" ]; then
    echo "usage: replay.sh FILE  (a bare file name from /root/q/error)" >&2
    exit 2
fi
cd /root/q/error || exit 1
if [ ! -f "./$f" ]; then
    echo "no such file in error/: $f" >&2
    exit 1
fi
mv -- "./$f" ../inbox/
