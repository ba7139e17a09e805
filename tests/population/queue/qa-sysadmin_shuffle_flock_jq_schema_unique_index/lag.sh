#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD  -> inbox=<n> processing=<n> error=<n> ; rc 1 when inbox > THRESHOLD
[[ $# == 2 && $2 =~ ^[0-9]+$ ]] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }
cd "$1" 2>/dev/null || { echo "lag.sh: no such dir $1" >&2; exit 2; }
find inbox processing error -mindepth 1 -maxdepth 1 -type f -printf '%H\n' 2>/dev/null |
awk -v t="$2" '
    { n[$0]++ }
    END {
        printf "inbox=%d processing=%d error=%d\n", n["inbox"], n["processing"], n["error"]
        exit (n["inbox"] + 0 > t + 0) ? 1 : 0
    }'
