#!/usr/bin/env bash
# lag.sh <queue_dir> <threshold>
set -u
if [[ $# -ne 2 ]]; then
  echo "usage: lag.sh <queue_dir> <threshold>" >&2
  exit 2
fi
qd=$1 th=$2
cnt() { find "$qd/$1" -mindepth 1 -maxdepth 1 -type f | wc -l; }
i=$(cnt inbox) p=$(cnt processing) e=$(cnt error)
echo "inbox=$i processing=$p error=$e"
(( i > th )) && exit 1
exit 0
