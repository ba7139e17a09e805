#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
[ "$#" -eq 2 ] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }
cnt() { find "$1" -mindepth 1 -maxdepth 1 -type f 2>/dev/null | wc -l; }
i=$(cnt "$1/inbox"); p=$(cnt "$1/processing"); e=$(cnt "$1/error")
echo "inbox=$i processing=$p error=$e"
[ "$i" -gt "$2" ] && exit 1
exit 0
