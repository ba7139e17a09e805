#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
q="$1"
t="$2"
if [ -z "$q" ] || [ -z "$t" ]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
i=$(find "$q/inbox" -maxdepth 1 -type f | wc -l)
p=$(find "$q/processing" -maxdepth 1 -type f | wc -l)
e=$(find "$q/error" -maxdepth 1 -type f | wc -l)
echo "inbox=$i processing=$p error=$e"
if [ "$i" -gt "$t" ]; then
    exit 1
fi
exit 0
