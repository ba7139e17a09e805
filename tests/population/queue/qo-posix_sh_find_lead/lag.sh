#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
# prints "inbox=<n> processing=<n> error=<n>", exit 1 when inbox > THRESHOLD
if [ "$#" -ne 2 ]; then
    echo "usage: $0 QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
qdir=$1
limit=$2
case $limit in
    ''|*[!0-9]*) echo "lag.sh: THRESHOLD must be a whole number" >&2; exit 2 ;;
esac

# one dot per regular file directly in the dir (names with newlines count once)
count() {
    find "$qdir/$1" -mindepth 1 -maxdepth 1 -type f -printf . 2>/dev/null | wc -c
}

i=$(count inbox)
p=$(count processing)
e=$(count error)
echo "inbox=$i processing=$p error=$e"

if [ "$i" -gt "$limit" ]; then
    exit 1
fi
exit 0
