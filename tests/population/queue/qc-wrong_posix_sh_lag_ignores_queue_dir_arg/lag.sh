#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
Q=/root/q
THRESHOLD=$2
count() {
    find "$Q/$1" -mindepth 1 -maxdepth 1 -type f | awk 'END { print NR }'
}
i=$(count inbox)
echo "inbox=$i processing=$(count processing) error=$(count error)"
awk -v i="$i" -v t="$THRESHOLD" 'BEGIN { if (i + 0 > t + 0) exit 1; exit 0 }'
