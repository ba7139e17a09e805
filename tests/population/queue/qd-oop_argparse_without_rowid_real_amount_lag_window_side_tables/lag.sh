#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD
# Prints "inbox=<n> processing=<n> error=<n>"; exits 1 when inbox > THRESHOLD.
set -euo pipefail

usage() {
    echo "usage: ${0##*/} QUEUE_DIR THRESHOLD" >&2
    exit 2
}

(( $# == 2 )) || usage
queue_dir=$1
threshold=$2
[[ $threshold =~ ^[0-9]+$ ]] || usage
[[ -d $queue_dir ]] || { echo "${0##*/}: $queue_dir: not a directory" >&2; exit 2; }

count_files() {
    local dir=$1 n=0 entry
    [[ -d $dir ]] || { echo 0; return; }
    shopt -s nullglob dotglob
    for entry in "$dir"/*; do
        [[ -f $entry ]] && n=$((n + 1))
    done
    echo "$n"
}

declare -A count
for sub in inbox processing error; do
    count[$sub]=$(count_files "$queue_dir/$sub")
done

printf 'inbox=%d processing=%d error=%d\n' "${count[inbox]}" "${count[processing]}" "${count[error]}"

if (( count[inbox] > 10#$threshold )); then
    exit 1
fi
exit 0
