#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD : inbox 가 임계치 초과면 exit 1
(( $# == 2 )) && [[ $2 =~ ^[0-9]+$ ]] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }
n() { find "$1" -mindepth 1 -maxdepth 1 -type f -printf . 2>/dev/null | wc -c; }
i=$(n "$1/inbox") p=$(n "$1/processing") e=$(n "$1/error")
echo "inbox=$i processing=$p error=$e"
(( i <= 10#$2 ))
