#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
if [ $# -ne 2 ]; then echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 64; fi
qd=$1 th=$2
case $th in ''|*[!0-9]*) echo "THRESHOLD must be a whole number" >&2; exit 64;; esac
n() { find "$qd/$1" -mindepth 1 -maxdepth 1 -type f -printf . 2>/dev/null | wc -c; }
in=$(n inbox) pr=$(n processing) er=$(n error)
echo "inbox=$in processing=$pr error=$er"
[ "$in" -gt "$th" ] && exit 1
exit 0
