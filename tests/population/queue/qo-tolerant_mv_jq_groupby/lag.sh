#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD  ->  inbox=<n> processing=<n> error=<n>
#                                 exit 1 if inbox > THRESHOLD
set -u
if (( $# != 2 )); then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
queue=$1
if [[ ! $2 =~ ^[0-9]+$ ]]; then
    echo "lag.sh: THRESHOLD must be a number, got '$2'" >&2
    exit 2
fi
threshold=$((10#$2))

count() {
    local -a found=()
    if [[ -d $queue/$1 ]]; then
        mapfile -d '' -t found < <(find "$queue/$1" -mindepth 1 -maxdepth 1 -type f -print0)
    fi
    echo "${#found[@]}"
}

inbox=$(count inbox)
processing=$(count processing)
error=$(count error)
printf 'inbox=%d processing=%d error=%d\n' "$inbox" "$processing" "$error"
(( inbox <= threshold ))
