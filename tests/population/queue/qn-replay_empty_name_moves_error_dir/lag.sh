#!/bin/bash
# ./lag.sh QUEUE_DIR THRESHOLD
[ $# -eq 2 ] || { echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 2; }
q=$1; t=$2
c() { find "$q/$1" -mindepth 1 -maxdepth 1 -type f -printf '.' | wc -c; }
i=$(c inbox); p=$(c processing); e=$(c error)
echo "inbox=$i processing=$p error=$e"
[ "$i" -le "$t" ] || exit 1
