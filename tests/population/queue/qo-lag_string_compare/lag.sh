#!/bin/bash
# lag.sh <queue_dir> <threshold>
# prints the backlog, exits 1 when inbox is over the threshold
dir=$1
threshold=$2
if [[ -z $dir || -z $threshold ]]; then
    echo "usage: lag.sh <queue_dir> <threshold>" >&2
    exit 2
fi

shopt -s nullglob dotglob
count_files() {
    local n=0 f
    for f in "$1"/*; do
        [[ -f $f && ! -L $f ]] && n=$((n + 1))
    done
    echo "$n"
}

inbox=$(count_files "$dir/inbox")
processing=$(count_files "$dir/processing")
error=$(count_files "$dir/error")
echo "inbox=$inbox processing=$processing error=$error"

if [[ $inbox > $threshold ]]; then
    echo "ALERT: inbox backlog $inbox > $threshold" >&2
    exit 1
fi
exit 0
