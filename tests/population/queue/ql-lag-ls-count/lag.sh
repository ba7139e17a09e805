#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
# ls -A : 숨김파일(.xxx)도 세려고 -A (. 이랑 .. 은 빼줌)
QDIR=${1:?usage: lag.sh QUEUE_DIR THRESHOLD}
LIMIT=${2:?usage: lag.sh QUEUE_DIR THRESHOLD}

INBOX=$(ls -A "$QDIR/inbox" 2>/dev/null | wc -l)
PROCESSING=$(ls -A "$QDIR/processing" 2>/dev/null | wc -l)
ERROR=$(ls -A "$QDIR/error" 2>/dev/null | wc -l)
echo "inbox=$INBOX processing=$PROCESSING error=$ERROR"

if [ "$INBOX" -gt "$LIMIT" ]; then
    exit 1
fi
exit 0
