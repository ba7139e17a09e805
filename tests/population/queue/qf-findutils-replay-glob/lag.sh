#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
q=$1
limit=$2

# every entry directly inside, stat says what it is; count only regular files
# ("regular file" and "regular empty file")
count() {
    find "$1" -mindepth 1 -maxdepth 1 -print0 | xargs -0 -r stat -c '%F' | grep -c '^regular'
}

inbox=$(count "$q/inbox")
processing=$(count "$q/processing")
error=$(count "$q/error")
echo "inbox=$inbox processing=$processing error=$error"
[ "$inbox" -le "$limit" ]
