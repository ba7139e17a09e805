#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
if [ "$#" -ne 2 ]; then echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; fi
count() { find "$1" -mindepth 1 -maxdepth 1 -type f | wc -l; }
in=$(count "$1/inbox"); pr=$(count "$1/processing"); er=$(count "$1/error")
echo "inbox=$in processing=$pr error=$er"
[ "$in" -le "$2" ] || exit 1
