#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD
set -euo pipefail
if [[ $# -ne 2 || ! $2 =~ ^[0-9]+$ ]]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
qdir=$1 threshold=$2

cnt() { find "$qdir/$1" -mindepth 1 -maxdepth 1 -type f 2>/dev/null | wc -l; }

inbox=$(cnt inbox) processing=$(cnt processing) error=$(cnt error)
echo "inbox=$inbox processing=$processing error=$error"
(( inbox <= threshold ))
