#!/bin/bash
# 7단계: lag.sh 큐디렉터리 임계치
# 종료코드: 0 정상, 2 inbox 가 임계치 초과, 64 사용법 오류
# (bash 변수 이름은 한글이 안 돼서 영어로 씀)
if [ $# -ne 2 ]; then
    echo "사용법: $0 큐디렉터리 임계치" >&2
    exit 64
fi
qdir="$1"
limit="$2"

count_files() {
    # 디렉터리 바로 아래의 일반 파일 수 (숨김 파일 포함, 하위 디렉터리 제외)
    local n=0 f
    shopt -s nullglob dotglob
    for f in "$1"/*; do
        [ -f "$f" ] && n=$((n + 1))
    done
    echo "$n"
}

inbox=$(count_files "$qdir/inbox")
processing=$(count_files "$qdir/processing")
error=$(count_files "$qdir/error")
echo "inbox=$inbox processing=$processing error=$error"

# '초과' = 임계치보다 큰 경우만 (같으면 정상)
if (( inbox > limit )); then
    exit 2
fi
exit 0
