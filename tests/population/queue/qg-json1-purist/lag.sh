#!/bin/bash
# usage: lag.sh QUEUE_DIR THRESHOLD
dir=$1
limit=$2
n() { find "$dir/$1" -mindepth 1 -maxdepth 1 -type f -printf x | wc -c; }
inbox=$(n inbox)
echo "inbox=$inbox processing=$(n processing) error=$(n error)"
[ "$inbox" -le "$limit" ]
