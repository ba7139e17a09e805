#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
[ $# -eq 2 ] || { echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 2; }
count() {
    find "$1" -mindepth 1 -maxdepth 1 -type f -printf x 2>/dev/null | wc -c
}
i=$(count "$1/inbox")
p=$(count "$1/processing")
e=$(count "$1/error")
echo "inbox=$i processing=$p error=$e"
exit $(( i > $2 ))
