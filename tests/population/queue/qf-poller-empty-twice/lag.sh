#!/bin/bash
# usage: lag.sh QUEUE_DIR THRESHOLD
dir="$1"
max="$2"
cnt() { find "$dir/$1" -mindepth 1 -maxdepth 1 -type f | wc -l; }
inbox=$(cnt inbox)
processing=$(cnt processing)
error=$(cnt error)
echo "inbox=$inbox processing=$processing error=$error"
if [ "$inbox" -gt "$max" ]; then
  exit 1
fi
exit 0
