#!/usr/bin/env bash
#
# lag.sh QUEUE_DIR THRESHOLD
#   Prints: inbox=<n> processing=<n> error=<n>
#   Exit:   0 = inbox <= THRESHOLD, 1 = inbox > THRESHOLD, 2 = usage error
#
set -euo pipefail

usage() { echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 2; }

[[ $# -eq 2 ]] || usage
readonly QUEUE_DIR=$1
readonly THRESHOLD=$2
[[ $THRESHOLD =~ ^[0-9]+$ ]] || { echo "THRESHOLD must be a non-negative integer" >&2; exit 2; }

count_files() {
    local dir="$QUEUE_DIR/$1"
    if [[ ! -d $dir ]]; then
        echo "missing directory: $dir" >&2
        exit 2
    fi
    find "$dir" -mindepth 1 -maxdepth 1 -type f -printf '.' | wc -c
}

inbox=$(count_files inbox)
processing=$(count_files processing)
error=$(count_files error)

printf 'inbox=%d processing=%d error=%d\n' "$inbox" "$processing" "$error"

if (( inbox > THRESHOLD )); then
    echo "ALERT: inbox backlog $inbox exceeds threshold $THRESHOLD" >&2
    exit 1
fi
exit 0
