#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
if [[ $# -ne 2 || ! $2 =~ ^[0-9]+$ ]]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD(integer)" >&2
    exit 2
fi
dir=$1
max=$((10#$2))

n_files() {
    local n=0 f
    for f in "$1"/* "$1"/.*; do
        [[ -f $f && ! -L $f ]] && n=$((n + 1))
    done
    echo "$n"
}

inbox=$(n_files "$dir/inbox")
processing=$(n_files "$dir/processing")
error=$(n_files "$dir/error")
echo "inbox=$inbox processing=$processing error=$error"
if (( inbox > max )); then
    exit 1
fi
exit 0
