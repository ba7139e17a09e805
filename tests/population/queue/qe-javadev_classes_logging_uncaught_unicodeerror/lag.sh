#!/bin/bash
# Usage: lag.sh QUEUE_DIR THRESHOLD
set -u

if [ "$#" -ne 2 ]; then
    echo "Usage: $0 QUEUE_DIR THRESHOLD" >&2
    exit 2
fi

QUEUE_DIR="$1"
THRESHOLD="$2"

count_files() {
    find "$1" -mindepth 1 -maxdepth 1 -type f | wc -l
}

INBOX_COUNT=$(count_files "$QUEUE_DIR/inbox")
PROCESSING_COUNT=$(count_files "$QUEUE_DIR/processing")
ERROR_COUNT=$(count_files "$QUEUE_DIR/error")

echo "inbox=${INBOX_COUNT} processing=${PROCESSING_COUNT} error=${ERROR_COUNT}"

if [ "$INBOX_COUNT" -gt "$THRESHOLD" ]; then
    exit 1
fi
exit 0
