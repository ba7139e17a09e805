#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
if [[ $# -ne 2 ]]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
dir=$1
threshold=$2
if [[ ! $threshold =~ ^[0-9]+$ ]]; then
    echo "lag.sh: THRESHOLD must be an integer" >&2
    exit 2
fi

count() {
    find "$dir/$1" -mindepth 1 -maxdepth 1 -type f -printf '.' 2>/dev/null | wc -c
}

inbox=$(count inbox)
processing=$(count processing)
error=$(count error)

echo "inbox=$inbox processing=$processing error=$error"

if [[ $inbox > $threshold ]]; then
    exit 1
fi
exit 0
