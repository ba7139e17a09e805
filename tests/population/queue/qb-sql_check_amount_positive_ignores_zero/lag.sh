#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
[ $# -eq 2 ] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }
c() { find "$1" -maxdepth 1 -type f | wc -l; }
i=$(c "$1/inbox"); p=$(c "$1/processing"); e=$(c "$1/error")
echo "inbox=$i processing=$p error=$e"
[ "$i" -le "$2" ]
