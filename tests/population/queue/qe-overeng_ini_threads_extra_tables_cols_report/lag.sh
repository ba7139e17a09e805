#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD
#   prints:  inbox=<n> processing=<n> error=<n>
#   exit 0   inbox <= THRESHOLD
#   exit 1   inbox >  THRESHOLD (backlog alert)
#   exit 64  usage error (wrong arg count, THRESHOLD not a non-negative integer)
#   exit 66  QUEUE_DIR missing one of the queue directories
set -euo pipefail

usage() { echo "usage: ${0##*/} QUEUE_DIR THRESHOLD" >&2; exit 64; }
[[ $# -eq 2 ]] || usage
qdir=${1%/}
threshold=$2
[[ $threshold =~ ^[0-9]+$ ]] || usage

for d in inbox processing error; do
    [[ -d $qdir/$d ]] || { echo "${0##*/}: $qdir/$d: no such directory" >&2; exit 66; }
done

# regular files directly inside the directory (hidden ones too, no subdirectories)
count() { find "$qdir/$1" -mindepth 1 -maxdepth 1 -type f -printf '.' | wc -c; }

inbox=$(count inbox)
processing=$(count processing)
error=$(count error)
printf 'inbox=%d processing=%d error=%d\n' "$inbox" "$processing" "$error"

(( 10#$inbox <= 10#$threshold )) || exit 1
