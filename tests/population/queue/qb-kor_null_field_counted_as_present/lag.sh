#!/bin/bash
# 사용법: lag.sh <큐디렉터리> <임계치>
if [ $# -ne 2 ]; then
    echo "사용법: lag.sh <큐디렉터리> <임계치>" >&2
    exit 2
fi
센다() { find "$1" -mindepth 1 -maxdepth 1 -type f 2>/dev/null | wc -l; }
inbox=$(센다 "$1/inbox")
processing=$(센다 "$1/processing")
error=$(센다 "$1/error")
echo "inbox=$inbox processing=$processing error=$error"
# 임계치 초과면 1
if [ "$inbox" -gt "$2" ]; then
    exit 1
fi
exit 0
