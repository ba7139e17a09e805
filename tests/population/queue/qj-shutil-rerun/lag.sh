#!/usr/bin/env bash
set -euo pipefail
if [[ $# -ne 2 ]]; then
    echo "usage: $(basename "$0") QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
qdir=$1
threshold=$2
count_files() {
    find "$1" -mindepth 1 -maxdepth 1 -type f -printf '.' | wc -c
}
inbox=$(count_files "$qdir/inbox")
processing=$(count_files "$qdir/processing")
error=$(count_files "$qdir/error")
echo "inbox=$inbox processing=$processing error=$error"
if (( inbox > threshold )); then
    exit 1
fi
exit 0
