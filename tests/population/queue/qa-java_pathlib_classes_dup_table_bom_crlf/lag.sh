#!/usr/bin/env bash
# Queue lag monitor.
#   usage: lag.sh QUEUE_DIR THRESHOLD
#   stdout: inbox=<n> processing=<n> error=<n>
#   exit:   0 when inbox <= THRESHOLD, 1 when inbox > THRESHOLD, 2 on usage errors
set -euo pipefail

readonly EXIT_OK=0
readonly EXIT_LAGGING=1
readonly EXIT_USAGE=2

usage() { echo "usage: $(basename "$0") QUEUE_DIR THRESHOLD" >&2; exit "$EXIT_USAGE"; }

count_files() {
    local dir=$1 count=0 entry
    [[ -d $dir ]] || { echo 0; return; }
    shopt -s nullglob dotglob
    for entry in "$dir"/*; do
        [[ -f $entry && ! -L $entry ]] && count=$((count + 1))
    done
    echo "$count"
}

main() {
    [[ $# -eq 2 ]] || usage
    local queue_dir=$1 threshold=$2
    [[ $threshold =~ ^[0-9]+$ ]] || usage
    local inbox processing error
    inbox=$(count_files "$queue_dir/inbox")
    processing=$(count_files "$queue_dir/processing")
    error=$(count_files "$queue_dir/error")
    echo "inbox=${inbox} processing=${processing} error=${error}"
    if (( inbox > threshold )); then
        exit "$EXIT_LAGGING"
    fi
    exit "$EXIT_OK"
}

main "$@"
