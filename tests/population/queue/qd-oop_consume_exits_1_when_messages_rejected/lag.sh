#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD
set -uo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $(basename "$0") QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
readonly QUEUE_DIR=$1 THRESHOLD=$2
if ! [[ $THRESHOLD =~ ^[0-9]+$ ]]; then
    echo "THRESHOLD must be a non-negative integer: $THRESHOLD" >&2
    exit 2
fi

count() {
    find "$QUEUE_DIR/$1" -mindepth 1 -maxdepth 1 -type f -printf '.' 2>/dev/null | wc -c
}

inbox=$(count inbox)
processing=$(count processing)
error=$(count error)
echo "inbox=${inbox} processing=${processing} error=${error}"

(( inbox <= 10#$THRESHOLD ))
