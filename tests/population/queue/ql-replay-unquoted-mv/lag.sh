#!/bin/bash
# ./lag.sh /root/q 10
q="$1"; limit="$2"
if [ -z "$q" ] || [ -z "$limit" ]; then
  echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2
fi
n_in=$(find "$q/inbox" -maxdepth 1 -type f -printf x 2>/dev/null | wc -c)
n_pr=$(find "$q/processing" -maxdepth 1 -type f -printf x 2>/dev/null | wc -c)
n_er=$(find "$q/error" -maxdepth 1 -type f -printf x 2>/dev/null | wc -c)
echo "inbox=$n_in processing=$n_pr error=$n_er"
test "$n_in" -le "$limit"
