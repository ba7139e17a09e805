#!/bin/bash
dir="$1"
limit="$2"
inbox=$(ls -1 "$dir/inbox" | wc -l)
processing=$(ls -1 "$dir/processing" | wc -l)
error=$(ls -1 "$dir/error" | wc -l)
echo "inbox=$inbox processing=$processing error=$error"
if [ "$inbox" -gt "$limit" ]; then
  exit 1
fi
exit 0
