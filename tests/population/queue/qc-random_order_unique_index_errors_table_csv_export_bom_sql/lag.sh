#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
count() {
    n=0
    for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
        if [ -f "$f" ] && [ ! -h "$f" ]; then n=$((n + 1)); fi
    done
    echo $n
}
q=$1
limit=$2
i=$(count "$q/inbox")
echo "inbox=$i processing=$(count "$q/processing") error=$(count "$q/error")"
if [ "$i" -gt "$limit" ]; then
    exit 1
fi
exit 0
