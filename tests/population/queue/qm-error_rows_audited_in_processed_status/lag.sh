#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
if [ $# -ne 2 ]; then echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; fi
count() { find "$1" -mindepth 1 -maxdepth 1 -type f 2>/dev/null | wc -l; }
inbox=$(count "$1/inbox")
processing=$(count "$1/processing")
error=$(count "$1/error")
echo "inbox=$inbox processing=$processing error=$error"
if [ "$inbox" -gt "$2" ]; then
    exit 1
fi
exit 0
