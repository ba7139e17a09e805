#!/bin/bash
# lag.sh - queue lag monitor
# usage: ./lag.sh <queue_dir> <threshold>
# https://stackoverflow.com/questions/11131020/count-number-of-files-in-a-directory-with-bash

QUEUE_DIR="$1"
THRESHOLD="$2"

if [ -z "$QUEUE_DIR" ] || [ -z "$THRESHOLD" ]; then
    echo "Usage: $0 <queue_dir> <threshold>"
    exit 2
fi

INBOX_COUNT=$(find "$QUEUE_DIR/inbox" -maxdepth 1 -type f | wc -l)
PROCESSING_COUNT=$(find "$QUEUE_DIR/processing" -maxdepth 1 -type f | wc -l)
ERROR_COUNT=$(find "$QUEUE_DIR/error" -maxdepth 1 -type f | wc -l)

echo "inbox=$INBOX_COUNT processing=$PROCESSING_COUNT error=$ERROR_COUNT"

if [ "$INBOX_COUNT" -gt "$THRESHOLD" ]; then
    exit 1
fi
exit 0
