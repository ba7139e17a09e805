#!/usr/bin/env bash
# usage: lag.sh QUEUE_DIR THRESHOLD
set -euo pipefail
if [[ $# -ne 2 ]]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
readonly QUEUE_DIR=$1
readonly THRESHOLD=$2
count() { find "$QUEUE_DIR/$1" -mindepth 1 -maxdepth 1 -type f | wc -l; }
inbox=$(count inbox)
processing=$(count processing)
error=$(count error)
echo "inbox=$inbox processing=$processing error=$error"
if (( inbox > THRESHOLD )); then
    exit 1
fi
