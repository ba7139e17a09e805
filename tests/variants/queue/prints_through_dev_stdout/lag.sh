#!/usr/bin/env bash
# Step 7: lag.sh QUEUE_DIR THRESHOLD
# Prints the queue depth as one line (also valid Nagios perfdata) and exits 2 (CRITICAL)
# when more than THRESHOLD messages wait in inbox/.
set -eu

if [ $# -ne 2 ] || ! [[ $2 =~ ^[0-9]+$ ]]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" > /dev/stderr
    exit 3  # UNKNOWN
fi
queue=$1 threshold=$2

count() {  # regular files directly inside $1
    local n=0 f
    for f in "$1"/*; do
        [ -f "$f" ] && n=$((n + 1))
    done
    echo "$n"
}

inbox=$(count "$queue/inbox")
echo "inbox=$inbox processing=$(count "$queue/processing") error=$(count "$queue/error")" > /dev/stdout
[ "$inbox" -le "$threshold" ] || exit 2
