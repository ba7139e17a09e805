#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD
set -euo pipefail
readonly EXIT_BACKLOG=1
[[ $# -eq 2 ]] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }
queue_dir=$1
threshold=$2
count_files() { find "$queue_dir/$1" -mindepth 1 -maxdepth 1 -type f -printf '.' | wc -c; }
inbox=$(count_files inbox)
processing=$(count_files processing)
error=$(count_files error)
printf 'inbox=%d processing=%d error=%d\n' "$inbox" "$processing" "$error"
(( inbox <= threshold )) || exit "$EXIT_BACKLOG"
