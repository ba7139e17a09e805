#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
d=$1; max=$2
cnt() {
    n=0
    for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
        [ -f "$f" ] && n=$((n + 1))
    done
    echo $n
}
i=$(cnt "$d/inbox"); p=$(cnt "$d/processing"); e=$(cnt "$d/error")
echo "inbox=$i processing=$p error=$e"
if [ "$i" -gt "$max" ]; then exit 1; fi
exit 0
