#!/bin/bash
# lag.sh <queue dir> <threshold>
if [ "$#" -ne 2 ]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD"
    exit 2
fi
inbox=$(find "$1/inbox" -maxdepth 1 -type f | wc -l)
processing=$(find "$1/processing" -maxdepth 1 -type f | wc -l)
error=$(find "$1/error" -maxdepth 1 -type f | wc -l)
echo "inbox=$inbox processing=$processing error=$error"
if [ "$inbox" -gt "$2" ]; then
    echo "too many messages waiting!" >&2
    exit 1
fi
exit 0
