#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
qdir=$1
threshold=$2
if ! [[ $threshold =~ ^[0-9]+$ ]]; then
    echo "threshold must be a non-negative integer" >&2
    exit 2
fi

count() {
    # regular files directly inside $1; -print0 + tr so odd names count once
    find "$1" -mindepth 1 -maxdepth 1 -type f -print0 | tr -dc '\0' | wc -c
}

inbox=$(count "$qdir/inbox")
processing=$(count "$qdir/processing")
error=$(count "$qdir/error")
echo "inbox=$inbox processing=$processing error=$error"

# base-10 forced so "08" is not octal
if (( 10#$inbox > 10#$threshold )); then
    exit 1
fi
exit 0
