#!/bin/bash
# 적체 모니터링: lag.sh 큐디렉터리 임계치
# inbox 건수가 임계치를 "초과"하면 종료코드 1 (같으면 0)
if [ $# -ne 2 ]; then
    echo "사용법: $0 큐디렉터리 임계치" >&2
    exit 2
fi
QDIR="$1"
LIMIT="$2"

# 디렉터리 바로 아래의 일반 파일만 센다
count_files() {
    local n=0 f
    shopt -s nullglob dotglob
    for f in "$QDIR/$1"/*; do
        [ -f "$f" ] && [ ! -L "$f" ] && n=$((n + 1))
    done
    echo "$n"
}

IN=$(count_files inbox)
PR=$(count_files processing)
ER=$(count_files error)
echo "inbox=$IN processing=$PR error=$ER"

if [ "$IN" -gt "$LIMIT" ]; then
    echo "경고: inbox 적체 ($IN > $LIMIT)" >&2
    exit 1
fi
exit 0
