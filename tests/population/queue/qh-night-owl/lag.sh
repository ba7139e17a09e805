#!/usr/bin/env bash
# 적체 모니터링: lag.sh QUEUE_DIR THRESHOLD
#   inbox=<n> processing=<n> error=<n> 한 줄 출력
#   inbox 가 임계치 "초과"면 종료코드 1 (같으면 0)
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: $0 QUEUE_DIR THRESHOLD" >&2
    exit 64
fi
qdir=${1%/}
thr=$2
if ! [[ $thr =~ ^-?[0-9]+$ ]]; then
    echo "THRESHOLD 는 정수여야 함: $thr" >&2
    exit 64
fi

shopt -s nullglob dotglob   # 숨김파일도 세고, 빈 디렉터리면 0

세기() {
    local n=0 f
    for f in "$1"/*; do
        # 디렉터리 바로 아래의 일반 파일만 (하위 디렉터리, 심볼릭 링크 제외)
        if [[ -f $f && ! -L $f ]]; then
            n=$((n + 1))
        fi
    done
    echo "$n"
}

inbox=$(세기 "$qdir/inbox")
processing=$(세기 "$qdir/processing")
error=$(세기 "$qdir/error")

echo "inbox=$inbox processing=$processing error=$error"

# [[ -gt ]] 는 010 을 8진수로 읽어서 [ ] 를 씀 (test 는 10진수)
if [ "$inbox" -gt "$thr" ]; then
    exit 1
fi
exit 0
