#!/bin/bash
# 사용법: lag.sh <큐디렉터리> <임계치>
# 출력: inbox=<n> processing=<n> error=<n>  /  inbox > 임계치 이면 exit 1
dir="$1"
max="$2"
if [ -z "$dir" ] || [ -z "$max" ]; then
    echo "사용법: lag.sh <큐디렉터리> <임계치>" >&2
    exit 2
fi
# ls -lA 에서 '-' 로 시작하는 줄 = 일반 파일
inbox=$(ls -lA "$dir/inbox" 2>/dev/null | grep -c '^-')
processing=$(ls -lA "$dir/processing" 2>/dev/null | grep -c '^-')
error=$(ls -lA "$dir/error" 2>/dev/null | grep -c '^-')
echo "inbox=$inbox processing=$processing error=$error"
[ "$inbox" -gt "$max" ] && exit 1
exit 0
