#!/bin/bash
# lag.sh QDIR THRESHOLD -> "inbox=N processing=N error=N", exit 1 if inbox > THRESHOLD
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 QDIR THRESHOLD" >&2
    exit 2
fi
qdir=$1
max=$2
case $max in
    ''|*[!0-9]*) echo "lag.sh: THRESHOLD must be a non-negative integer" >&2; exit 2 ;;
esac

# regular files directly in $1 (no subdirs, dotfiles count); one '.' per file
nfiles() {
    find "$1" -mindepth 1 -maxdepth 1 -type f -printf . 2>/dev/null | wc -c
}

i=$(nfiles "$qdir/inbox")
p=$(nfiles "$qdir/processing")
e=$(nfiles "$qdir/error")
echo "inbox=$i processing=$p error=$e"

if [ "$i" -gt "$max" ]; then
    exit 1
fi
exit 0
