#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
# prints the backlog and fails when inbox has piled up to the threshold
queue_dir=$1
threshold=$2

count() {
    # regular files directly in the directory
    find "$queue_dir/$1" -maxdepth 1 -type f | wc -l
}

inbox=$(count inbox)
processing=$(count processing)
error=$(count error)

echo "inbox=$inbox processing=$processing error=$error"

if [ "$inbox" -ge "$threshold" ]; then
    exit 1
fi
exit 0
