#!/usr/bin/env bash
# lag.sh <queue-dir> <threshold>
set -u
if (( $# != 2 )); then echo "usage: $0 <queue-dir> <threshold>" >&2; exit 2; fi
shopt -s nullglob dotglob
declare -A n
for d in inbox processing error; do
    n[$d]=0
    for f in "$1/$d"/*; do
        [[ -f $f && ! -L $f ]] && (( n[$d]++ ))
    done
done
printf 'inbox=%d processing=%d error=%d\n' "${n[inbox]}" "${n[processing]}" "${n[error]}"
(( n[inbox] > $2 )) && exit 3
exit 0
