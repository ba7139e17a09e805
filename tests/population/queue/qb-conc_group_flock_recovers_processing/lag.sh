#!/usr/bin/env bash
# usage: lag.sh QUEUE_DIR THRESHOLD
# one snapshot with one find over the three dirs (regular files directly inside), then aggregate
[[ $# -eq 2 && $2 =~ ^[0-9]+$ ]] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 64; }
q=${1%/}
read -r inbox processing error < <(
    for d in inbox processing error; do
        [[ -d $q/$d ]] && find "$q/$d" -mindepth 1 -maxdepth 1 -type f -printf "$d\n"
    done | awk '{c[$1]++} END {printf "%d %d %d\n", c["inbox"], c["processing"], c["error"]}'
)
printf 'inbox=%d processing=%d error=%d\n' "$inbox" "$processing" "$error"
if (( inbox > $2 )); then
    exit 1
fi
