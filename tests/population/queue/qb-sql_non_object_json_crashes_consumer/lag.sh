#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
[ $# -eq 2 ] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }
for d in inbox processing error; do
    declare "n_$d=$(find "$1/$d" -mindepth 1 -maxdepth 1 -type f 2>/dev/null | wc -l)"
done
echo "inbox=$n_inbox processing=$n_processing error=$n_error"
[ "$n_inbox" -gt "$2" ] && exit 1
exit 0
