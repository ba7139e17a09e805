#!/bin/bash
# 사용: lag.sh 큐디렉터리 임계치
dir=$1
limit=$2
n() { find "$dir/$1" -mindepth 1 -maxdepth 1 -type f | wc -l; }
i=$(n inbox)
p=$(n processing)
e=$(n error)
echo "inbox=$i processing=$p error=$e"
if [ "$i" -gt "$limit" ]; then
    echo "적체! inbox $i > $limit" >&2
    exit 1
fi
exit 0
