#!/bin/bash
# lag.sh <queue dir> <threshold>
dir=$1
max=$2
if [ $# -ne 2 ]; then echo "usage: lag.sh DIR THRESHOLD" >&2; exit 2; fi
n() { find "$dir/$1" -mindepth 1 -maxdepth 1 -type f -printf '%f\0' 2>/dev/null | tr -cd '\0' | wc -c; }
in=$(n inbox); pr=$(n processing); er=$(n error)
echo "inbox=$in processing=$pr error=$er"
if [ "$in" -gt "$max" ]; then
    echo "WARN: inbox $in > $max" >&2
    exit 1
fi
