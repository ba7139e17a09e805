#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
q=${1%/}
th=$2
n() { find "$q/$1" -mindepth 1 -maxdepth 1 -type f -printf 'x' | wc -c; }
i=$(n inbox); p=$(n processing); e=$(n error)
echo "inbox=$i processing=$p error=$e"
[ "$i" -le "$th" ]
