#!/bin/bash
# lag.sh <queue dir> <threshold>
dir=${1:?usage: lag.sh QUEUE_DIR THRESHOLD}
max=${2:?usage: lag.sh QUEUE_DIR THRESHOLD}

cnt() {
    local c=0 f
    while IFS= read -r f; do
        [ -f "$1/$f" ] && c=$((c + 1))
    done < <(ls -A "$1" 2>/dev/null)
    echo $c
}

i=$(cnt "$dir/inbox")
p=$(cnt "$dir/processing")
e=$(cnt "$dir/error")
echo "inbox=$i processing=$p error=$e"
test "$i" -le "$max"
