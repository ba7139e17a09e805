#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
[ $# -eq 2 ] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }
case $2 in ''|*[!0-9]*) echo "lag.sh: bad threshold: $2" >&2; exit 2;; esac
count() {
    n=0
    for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
        [ -f "$f" ] && [ ! -h "$f" ] && n=$((n + 1))
    done
    echo $n
}
i=$(count "$1/inbox"); p=$(count "$1/processing"); e=$(count "$1/error")
echo "inbox=$i processing=$p error=$e"
test "$i" -le "$2"
