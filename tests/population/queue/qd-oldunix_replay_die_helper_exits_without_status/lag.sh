#!/bin/sh
# usage: lag.sh QUEUE_DIR THRESHOLD
die() { echo "lag.sh: $*" >&2; exit 2; }
[ $# -eq 2 ] || die "usage: lag.sh QUEUE_DIR THRESHOLD"
case $2 in ''|*[!0-9]*) die "THRESHOLD must be an integer" ;; esac
n() { find "$1" -mindepth 1 -maxdepth 1 -type f 2>/dev/null | awk 'END { print NR }'; }
i=$(n "$1/inbox"); p=$(n "$1/processing"); e=$(n "$1/error")
echo "inbox=$i processing=$p error=$e"
test "$i" -le "$2"
