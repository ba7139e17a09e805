#!/usr/bin/env bash
# lag.sh — 적체 감시
#   사용법: lag.sh <큐디렉터리> <임계치>
#   출력:   inbox=<n> processing=<n> error=<n>
#   종료:   inbox > 임계치 이면 1, 아니면 0 (인자 오류는 2)
set -euo pipefail

usage() {
    echo "사용법: $0 <큐디렉터리> <임계치>" >&2
    exit 2
}

[[ $# -eq 2 ]] || usage
readonly QDIR=$1
readonly LIMIT=$2
[[ $LIMIT =~ ^[0-9]+$ ]] || usage

# 디렉터리 바로 아래 일반 파일 수 (하위 디렉터리·링크 제외, 없는 디렉터리는 0)
count() {
    if [[ -d $1 ]]; then
        find "$1" -mindepth 1 -maxdepth 1 -type f -printf 'f' | wc -c
    else
        echo 0
    fi
}

inbox=$(count "$QDIR/inbox")
processing=$(count "$QDIR/processing")
error=$(count "$QDIR/error")

printf 'inbox=%d processing=%d error=%d\n' "$inbox" "$processing" "$error"

if (( inbox > 10#$LIMIT )); then
    exit 1
fi
exit 0
