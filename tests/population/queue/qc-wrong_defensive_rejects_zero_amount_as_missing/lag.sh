#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD
# stdout: inbox=<n> processing=<n> error=<n>
# exit:   0 OK | 2 CRITICAL (inbox > THRESHOLD) | 3 UNKNOWN (bad arguments)
set -o nounset
die() { echo "UNKNOWN: $*" >&2; exit 3; }
(( $# == 2 )) || die "usage: $0 QUEUE_DIR THRESHOLD"
[[ -d $1 ]] || die "queue dir '$1' not found"
[[ $2 =~ ^[0-9]+$ ]] || die "threshold '$2' is not a non-negative integer"
declare -A n
for d in inbox processing error; do
    n[$d]=$(find "$1/$d" -mindepth 1 -maxdepth 1 -type f -printf . 2>/dev/null | wc -c)
done
echo "inbox=${n[inbox]} processing=${n[processing]} error=${n[error]}"
if (( n[inbox] > 10#$2 )); then
    echo "CRITICAL: backlog ${n[inbox]} > $2" >&2
    exit 2
fi
exit 0
