#!/bin/bash
if [ $# -lt 2 ]; then
  echo "usage: lag.sh QUEUE_DIR THRESHOLD"
  exit 2
fi
in_count=$(find "$1/inbox" -maxdepth 1 -type f | wc -l)
proc_count=$(find "$1/processing" -maxdepth 1 -type f | wc -l)
err_count=$(find "$1/error" -maxdepth 1 -type f | wc -l)
echo "inbox=$in_count processing=$proc_count error=$err_count"
if [ $in_count -gt $2 ]; then
  exit 1
fi
exit 0
