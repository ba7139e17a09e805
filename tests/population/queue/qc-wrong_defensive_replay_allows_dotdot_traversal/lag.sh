#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD  -- prints inbox/processing/error counts; exit 2 when inbox > THRESHOLD
set -uo pipefail
if [[ $# -ne 2 ]]; then
    echo "UNKNOWN: usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 3
fi
QDIR=$1
THRESHOLD=$2
if ! [[ $THRESHOLD =~ ^[0-9]+$ ]]; then
    echo "UNKNOWN: THRESHOLD must be a non-negative integer" >&2
    exit 3
fi
for d in inbox processing error; do
    if [[ ! -d $QDIR/$d ]]; then
        echo "UNKNOWN: $QDIR/$d is not a directory" >&2
        exit 3
    fi
done
count() { find "$1" -mindepth 1 -maxdepth 1 -type f -printf 'x\n' | wc -l; }
INBOX=$(count "$QDIR/inbox")
PROCESSING=$(count "$QDIR/processing")
ERROR=$(count "$QDIR/error")
echo "inbox=$INBOX processing=$PROCESSING error=$ERROR"
if (( INBOX > THRESHOLD )); then
    echo "CRITICAL: inbox=$INBOX above threshold $THRESHOLD" >&2
    exit 2
fi
exit 0
