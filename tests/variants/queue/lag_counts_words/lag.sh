#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
dir=$1
limit=$2
count() {
    ls -p "$dir/$1" | grep -v / | wc -w
}
inbox=$(count inbox)
echo "inbox=$inbox processing=$(count processing) error=$(count error)"
if [ "$inbox" -gt "$limit" ]; then
    exit 1
fi
