#!/usr/bin/env bash
# replay.sh — error/ 의 파일 하나를 inbox/ 로 되돌려 재처리
#   사용법: replay.sh <파일명>
#   error/ 에 그 파일이 없으면 아무것도 바꾸지 않고 1 로 종료
set -euo pipefail
readonly Q=/root/q

usage() {
    echo "사용법: $0 <파일명>" >&2
    exit 2
}

[[ $# -eq 1 ]] || usage
readonly name=$1
[[ -n $name ]] || usage

readonly src="$Q/error/$name"
# 목적지는 항상 inbox 바로 아래로 (경로가 섞여 들어와도 basename 만 씀)
readonly dst="$Q/inbox/$(basename -- "$name")"

# error/ 에 있는 일반 파일인지 먼저 확인
if [[ ! -f $src ]]; then
    echo "error/ 에 '$name' 이(가) 없습니다" >&2
    exit 1
fi
# inbox 에 같은 이름이 있으면 덮어쓰지 않음
if [[ -e $dst ]]; then
    echo "inbox/ 에 이미 '$(basename -- "$name")' 이(가) 있습니다" >&2
    exit 1
fi

mv -- "$src" "$dst"
echo "재처리 대기: $dst"
