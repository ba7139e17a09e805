#!/usr/bin/env bash
# lag.sh - queue backlog check
#
# usage: lag.sh QUEUE_DIR THRESHOLD
#   QUEUE_DIR  directory holding inbox/ processing/ error/
#   THRESHOLD  positive integer; exit 1 when inbox holds more files than this
# exit: 0 ok, 1 backlog above threshold, 2 usage error
set -u

usage() {
    echo "usage: $(basename "$0") QUEUE_DIR THRESHOLD" >&2
    echo "  THRESHOLD must be a positive integer" >&2
    exit 2
}

if [ $# -ne 2 ]; then
    echo "lag.sh: expected 2 arguments, got $#" >&2
    usage
fi

qdir=$1
threshold=$2

if [ ! -d "$qdir" ]; then
    echo "lag.sh: '$qdir' is not a directory" >&2
    usage
fi
if ! [[ $threshold =~ ^[1-9][0-9]*$ ]]; then
    echo "lag.sh: invalid threshold '$threshold'" >&2
    usage
fi
for sub in inbox processing error; do
    if [ ! -d "$qdir/$sub" ]; then
        echo "lag.sh: '$qdir/$sub' missing" >&2
        exit 2
    fi
done

count_files() {
    find "$1" -mindepth 1 -maxdepth 1 -type f -printf '.' | wc -c
}

inbox=$(count_files "$qdir/inbox")
processing=$(count_files "$qdir/processing")
error=$(count_files "$qdir/error")

echo "inbox=$inbox processing=$processing error=$error"

if (( inbox > threshold )); then
    exit 1
fi
exit 0
