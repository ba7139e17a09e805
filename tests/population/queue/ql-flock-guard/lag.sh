#!/bin/bash
# 사용: lag.sh <queue_dir> <threshold>
[ $# -eq 2 ] || { echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 2; }
QUEUE=$1 THRESHOLD=$2

cnt() { find "$QUEUE/$1" -mindepth 1 -maxdepth 1 -type f -printf 'f' 2>/dev/null | wc -c; }

IN=$(cnt inbox)
echo "inbox=$IN processing=$(cnt processing) error=$(cnt error)"
if (( IN > THRESHOLD )); then
    exit 1
fi
exit 0
