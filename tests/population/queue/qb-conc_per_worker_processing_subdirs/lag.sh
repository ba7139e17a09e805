#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
# counts regular files directly in inbox/, processing/, error/
# (my consumers keep in-flight files in processing/w<pid>/ -- those are not counted here)
if [ "$#" -ne 2 ]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
n() { find "$1" -mindepth 1 -maxdepth 1 -type f 2>/dev/null | wc -l; }
inbox=$(n "$1/inbox")
processing=$(n "$1/processing")
error=$(n "$1/error")
echo "inbox=$inbox processing=$processing error=$error"
test "$inbox" -le "$2"
