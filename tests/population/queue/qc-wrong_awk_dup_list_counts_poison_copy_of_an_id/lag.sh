#!/bin/sh
[ $# -eq 2 ] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }
for d in inbox processing error; do
    find "$1/$d" -mindepth 1 -maxdepth 1 -type f -printf "$d\n"
done | awk -v t="$2" '
    { c[$0]++ }
    END {
        print "inbox=" c["inbox"] + 0 " processing=" c["processing"] + 0 " error=" c["error"] + 0
        exit (c["inbox"] + 0 > t + 0)
    }'
