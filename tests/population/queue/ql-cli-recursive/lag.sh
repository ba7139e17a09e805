#!/bin/bash
# lag.sh <큐디렉터리> <임계치>
# find 로 파일 목록 -> awk 로 세고 종료코드까지 awk 가 결정
dir=${1%/}
th=${2:-0}
for d in inbox processing error; do
    find "$dir/$d" -mindepth 1 -maxdepth 1 -type f -printf "$d\n" 2>/dev/null
done | awk -v th="$th" '
    { n[$1]++ }
    END {
        printf "inbox=%d processing=%d error=%d\n", n["inbox"], n["processing"], n["error"]
        if (n["inbox"] + 0 > th + 0) exit 3
        exit 0
    }'
