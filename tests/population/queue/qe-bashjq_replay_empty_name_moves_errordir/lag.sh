#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
[ $# -eq 2 ] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }
n() { find "$1" -mindepth 1 -maxdepth 1 -type f -printf x | wc -c; }
ib=$(n "$1/inbox"); pr=$(n "$1/processing"); er=$(n "$1/error")
echo "inbox=$ib processing=$pr error=$er"
(( ib > $2 )) && exit 1
exit 0
