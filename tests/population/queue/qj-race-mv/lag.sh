#!/bin/bash
# usage: lag.sh QUEUE_DIR THRESHOLD
q=$1
max=$2
count() {
    local n=0 f
    for f in "$1"/* "$1"/.*; do
        [ -f "$f" ] && n=$((n+1))
    done
    echo "$n"
}
inbox=$(count "$q/inbox")
echo "inbox=$inbox processing=$(count "$q/processing") error=$(count "$q/error")"
if [ "$inbox" -gt "$max" ]; then
    exit 1
fi
