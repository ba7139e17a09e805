#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD - backlog check for cron / nagios
QD=${1:?usage: lag.sh QUEUE_DIR THRESHOLD}
TH=${2:?usage: lag.sh QUEUE_DIR THRESHOLD}
c() { find "$QD/$1" -maxdepth 1 -type f -printf x 2>/dev/null | wc -c; }
IN=$(c inbox); PR=$(c processing); ER=$(c error)
echo "inbox=$IN processing=$PR error=$ER"
if [ "$IN" -ge "$TH" ]; then
    exit 2
fi
exit 0
