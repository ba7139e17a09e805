#!/bin/bash
#
# lag.sh - queue backlog monitor
# usage: lag.sh QUEUE_DIR THRESHOLD
#   prints: inbox=<n> processing=<n> error=<n>
#   exit 0 when inbox <= THRESHOLD, 1 when inbox > THRESHOLD, 2 on bad usage
#
if [ $# -ne 2 ]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
QDIR=$1
LIMIT=$2

count() {
    find "$QDIR/$1" -mindepth 1 -maxdepth 1 -type f 2>/dev/null | wc -l
}

INBOX=$(count inbox)
PROCESSING=$(count processing)
ERROR=$(count error)
echo "inbox=$INBOX processing=$PROCESSING error=$ERROR"

if [ "$INBOX" -gt "$LIMIT" ]; then
    exit 1
fi
exit 0
