#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
set -u
if [ "$#" -ne 2 ]; then
    echo "usage: $0 QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
QDIR="$1"
THRESHOLD="$2"
if ! [[ "$THRESHOLD" =~ ^-?[0-9]+$ ]]; then
    echo "THRESHOLD must be an integer: $THRESHOLD" >&2
    exit 2
fi
count() {
    find "$1" -mindepth 1 -maxdepth 1 -type f -printf '.' | wc -c
}
INBOX_N=$(count "$QDIR/inbox")
PROC_N=$(count "$QDIR/processing")
ERR_N=$(count "$QDIR/error")
echo "inbox=$INBOX_N processing=$PROC_N error=$ERR_N"
if [ "$INBOX_N" -gt "$THRESHOLD" ]; then
    exit 1
fi
exit 0
