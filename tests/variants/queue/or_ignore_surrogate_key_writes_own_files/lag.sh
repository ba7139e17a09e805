#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
[ $# -eq 2 ] || { echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 3; }

n() { find "$1" -maxdepth 1 -type f | wc -l; }

i=$(n "$1/inbox")
p=$(n "$1/processing")
e=$(n "$1/error")
echo "inbox=$i processing=$p error=$e"
if [ "$i" -gt "$2" ]; then
    exit 1
fi
exit 0
