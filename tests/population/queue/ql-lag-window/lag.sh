#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
# inbox=<n> processing=<n> error=<n> 출력, inbox > 임계치 이면 exit 1
if [ $# -ne 2 ]; then
    echo "usage: $0 QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
QD=$1
TH=$2

# 파일 이름에 줄바꿈 있어도 안 깨지게 -printf . 로 셈 (stackoverflow 에서 봄)
cnt() {
    find "$QD/$1" -mindepth 1 -maxdepth 1 -type f -printf . 2>/dev/null | wc -c
}

i=$(cnt inbox)
p=$(cnt processing)
e=$(cnt error)
echo "inbox=$i processing=$p error=$e"

if [ "$i" -gt "$TH" ]; then
    exit 1
fi
exit 0
