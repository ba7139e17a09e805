#!/usr/bin/env bash
# usage: lag.sh QUEUE_DIR THRESHOLD
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 QUEUE_DIR THRESHOLD" >&2
    exit 64
fi
qdir=$1 threshold=$2

count() { find "$qdir/$1" -mindepth 1 -maxdepth 1 -type f 2>/dev/null | wc -l; }

inbox=$(count inbox)
processing=$(count processing)
error=$(count error)
echo "inbox=$inbox processing=$processing error=$error"

[ "$inbox" -le "$threshold" ]
