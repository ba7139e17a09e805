#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD
#   stdout: exactly one line "inbox=<n> processing=<n> error=<n>"
#   exit:   0 OK (inbox <= THRESHOLD), 2 CRITICAL (inbox > THRESHOLD), 3 UNKNOWN (usage/layout)
#   diagnostics go to stderr only, so the stdout line can be scraped by monitoring.
set -u -o pipefail
readonly OK=0 CRITICAL=2 UNKNOWN=3

die_unknown() { echo "lag.sh: UNKNOWN: $*" >&2; exit "$UNKNOWN"; }

[ $# -eq 2 ] || die_unknown "usage: lag.sh QUEUE_DIR THRESHOLD (got $# args)"
qdir=$1
threshold=$2
[[ $threshold =~ ^[0-9]+$ ]] || die_unknown "THRESHOLD must be a non-negative integer, got '$threshold'"
threshold=$((10#$threshold))

count_files() {
    local dir=$1
    [ -d "$dir" ] || die_unknown "$dir is not a directory"
    # regular files directly inside, NUL-safe for odd names
    find "$dir" -mindepth 1 -maxdepth 1 -type f -print0 | tr -cd '\0' | wc -c
}

inbox=$(count_files "$qdir/inbox") || exit "$UNKNOWN"
processing=$(count_files "$qdir/processing") || exit "$UNKNOWN"
error=$(count_files "$qdir/error") || exit "$UNKNOWN"

echo "inbox=$inbox processing=$processing error=$error"

if [ "$inbox" -gt "$threshold" ]; then
    echo "lag.sh: CRITICAL: inbox backlog $inbox > threshold $threshold" >&2
    exit "$CRITICAL"
fi
echo "lag.sh: OK: inbox backlog $inbox <= threshold $threshold" >&2
exit "$OK"
