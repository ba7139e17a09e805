#!/bin/bash
# Usage: lag.sh QUEUE_DIR THRESHOLD
# Prints "inbox=<n> processing=<n> error=<n>" and exits 1 if inbox > THRESHOLD.

if [ "$#" -ne 2 ]; then
    echo "Usage: $0 QUEUE_DIR THRESHOLD" >&2
    exit 2
fi

QUEUE_DIR="$1"
THRESHOLD="$2"

count_files() {
    # only regular files directly inside the directory
    find "$1" -mindepth 1 -maxdepth 1 -type f -printf '1\n' 2>/dev/null | wc -l
}

INBOX_COUNT=$(count_files "$QUEUE_DIR/inbox")
PROCESSING_COUNT=$(count_files "$QUEUE_DIR/processing")
ERROR_COUNT=$(count_files "$QUEUE_DIR/error")

echo "inbox=$INBOX_COUNT processing=$PROCESSING_COUNT error=$ERROR_COUNT"

if [ "$INBOX_COUNT" -gt "$THRESHOLD" ]; then
    exit 1
fi
exit 0
