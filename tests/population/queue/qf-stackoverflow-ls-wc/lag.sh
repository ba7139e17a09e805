#!/bin/bash
# Usage: ./lag.sh QUEUE_DIR THRESHOLD
# count files: https://stackoverflow.com/questions/11307257/is-there-a-bash-command-which-counts-files
QUEUE_DIR="$1"
THRESHOLD="$2"

INBOX=$(ls "$QUEUE_DIR/inbox" | wc -l)
PROCESSING=$(ls "$QUEUE_DIR/processing" | wc -l)
ERROR=$(ls "$QUEUE_DIR/error" | wc -l)

echo "inbox=$INBOX processing=$PROCESSING error=$ERROR"

# https://stackoverflow.com/questions/18668556/how-can-i-compare-numbers-in-bash
if (( INBOX > THRESHOLD )); then
    exit 1
fi
exit 0
