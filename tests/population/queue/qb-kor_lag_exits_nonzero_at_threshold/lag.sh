#!/bin/bash
# 적체 감시: lag.sh 큐디렉터리 임계치
# 임계치 이상 쌓이면 경고 + 종료코드 1
if [ $# -ne 2 ]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
dir=$1
limit=$2
inbox=$(find "$dir/inbox" -maxdepth 1 -type f | wc -l)
processing=$(find "$dir/processing" -maxdepth 1 -type f | wc -l)
error=$(find "$dir/error" -maxdepth 1 -type f | wc -l)
echo "inbox=$inbox processing=$processing error=$error"
if [ "$inbox" -ge "$limit" ]; then
    echo "적체 경고: inbox $inbox 건 (임계치 $limit)" >&2
    exit 1
fi
exit 0
