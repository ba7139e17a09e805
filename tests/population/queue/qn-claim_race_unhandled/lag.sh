#!/bin/bash
# usage: lag.sh <queue_dir> <threshold>
QDIR="$1"
THRESHOLD="$2"

inbox=$(find "$QDIR/inbox" -maxdepth 1 -type f | wc -l)
processing=$(find "$QDIR/processing" -maxdepth 1 -type f | wc -l)
error=$(find "$QDIR/error" -maxdepth 1 -type f | wc -l)

echo "inbox=$inbox processing=$processing error=$error"

if [ "$inbox" -gt "$THRESHOLD" ]; then
    exit 1
fi
exit 0
