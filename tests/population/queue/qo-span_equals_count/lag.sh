#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
[[ $# -eq 2 && $2 =~ ^[0-9]+$ ]] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }
shopt -s nullglob dotglob
declare -A n
for d in inbox processing error; do
    n[$d]=0
    for f in "$1/$d"/*; do
        [[ -f $f && ! -L $f ]] && (( n[$d]++ ))
    done
done
echo "inbox=${n[inbox]} processing=${n[processing]} error=${n[error]}"
(( n[inbox] > 10#$2 )) && exit 1
exit 0
