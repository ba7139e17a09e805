#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
# Prints "inbox=<n> processing=<n> error=<n>"; exit 1 when inbox > THRESHOLD.
# Counts regular files directly inside each folder (hidden ones too, no subfolders).

if [ "$#" -ne 2 ]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
qdir=$1
threshold=$2
case $threshold in
    ''|*[!0-9]*) echo "lag.sh: THRESHOLD is not a whole number: $threshold" >&2; exit 2 ;;
esac

count() {
    n=0
    # the three patterns together match every name except . and ..;
    # a pattern that matches nothing stays literal and fails the -f test
    for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
        if [ -f "$f" ] && [ ! -L "$f" ]; then
            n=$((n + 1))
        fi
    done
    echo "$n"
}

inbox=$(count "$qdir/inbox")
processing=$(count "$qdir/processing")
error=$(count "$qdir/error")
echo "inbox=$inbox processing=$processing error=$error"

if [ "$inbox" -gt "$threshold" ]; then
    exit 1
fi
exit 0
