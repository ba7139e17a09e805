#!/bin/bash
# lag.sh <queue dir> <threshold>
# exit 0 = OK (inbox <= threshold), 2 = CRITICAL (inbox > threshold), 3 = UNKNOWN (bad usage)
if [[ $# -ne 2 || ! $2 =~ ^[0-9]+$ ]]; then
    echo "usage: lag.sh <queue dir> <threshold (integer)>" >&2
    exit 3
fi
qdir=${1%/}
limit=$2

shopt -s nullglob dotglob
count() {
    local f n=0
    for f in "$qdir/$1"/*; do
        [[ -f $f && ! -L $f ]] && n=$((n + 1))
    done
    echo "$n"
}

in=$(count inbox)
proc=$(count processing)
err=$(count error)
echo "inbox=$in processing=$proc error=$err"

if (( in > limit )); then
    exit 2
fi
exit 0
