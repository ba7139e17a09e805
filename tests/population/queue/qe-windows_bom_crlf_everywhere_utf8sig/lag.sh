#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
dir="$1"
limit="$2"

n_inbox=$(find "$dir/inbox" -maxdepth 1 -type f | wc -l)
n_proc=$(find "$dir/processing" -maxdepth 1 -type f | wc -l)
n_err=$(find "$dir/error" -maxdepth 1 -type f | wc -l)

echo "inbox=$n_inbox processing=$n_proc error=$n_err"

if [ "$n_inbox" -gt "$limit" ]; then
    exit 1
fi
exit 0
