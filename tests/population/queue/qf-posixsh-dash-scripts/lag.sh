#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD   (POSIX sh; tested with dash)

usage() {
    echo "usage: $0 QUEUE_DIR THRESHOLD" >&2
    exit 2
}

[ $# -eq 2 ] || usage
qdir=$1
limit=$2
case $limit in
    ''|*[!0-9]*) usage ;;
esac

# regular files directly in $1, dot-files included, symlinks and subdirs not
count() {
    n=0
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

# a threshold longer than 18 digits is bigger than any count we can have
if [ ${#limit} -gt 18 ]; then
    exit 0
fi
if [ "$inbox" -gt "$limit" ]; then
    exit 1
fi
exit 0
