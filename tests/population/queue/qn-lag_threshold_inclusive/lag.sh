#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD  -- backlog check
#   OK       : exit 0
#   CRITICAL : exit 2
QDIR=${1:?queue dir}
LIMIT=${2:?threshold}

n() { find "$QDIR/$1" -maxdepth 1 -type f 2>/dev/null | wc -l; }

INBOX=$(n inbox)
PROC=$(n processing)
ERR=$(n error)
echo "inbox=$INBOX processing=$PROC error=$ERR"

if [ "$INBOX" -lt "$LIMIT" ]; then
    exit 0          # OK
fi
exit 2              # CRITICAL: backlog
