#!/bin/bash
# Usage: ./lag.sh <queue_dir> <threshold>
if [ $# -ne 2 ]; then
  echo "Usage: $0 <queue_dir> <threshold>"
  exit 2
fi
QDIR="$1"
LIMIT="$2"
INBOX=$(find "$QDIR/inbox" -maxdepth 1 -type f -printf '.' | wc -c)
PROCESSING=$(find "$QDIR/processing" -maxdepth 1 -type f -printf '.' | wc -c)
ERRORS=$(find "$QDIR/error" -maxdepth 1 -type f -printf '.' | wc -c)
echo "inbox=$INBOX processing=$PROCESSING error=$ERRORS"
if [ "$INBOX" -gt "$LIMIT" ]; then
  exit 1
fi
exit 0
