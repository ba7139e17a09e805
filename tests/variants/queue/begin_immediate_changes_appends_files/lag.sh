#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD -> "inbox=<n> processing=<n> error=<n>"; exit 1 above THRESHOLD
dir=${1:?usage: lag.sh QUEUE_DIR THRESHOLD}
max=${2:?usage: lag.sh QUEUE_DIR THRESHOLD}
shopt -s nullglob dotglob
declare -A n
for sub in inbox processing error; do
    files=()
    for f in "$dir/$sub"/*; do
        [[ -f $f ]] && files+=("$f")
    done
    n[$sub]=${#files[@]}
done
printf 'inbox=%d processing=%d error=%d\n' "${n[inbox]}" "${n[processing]}" "${n[error]}"
if (( n[inbox] > max )); then
    exit 1
fi
exit 0
