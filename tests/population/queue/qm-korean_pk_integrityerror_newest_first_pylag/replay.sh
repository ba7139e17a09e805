#!/usr/bin/env bash
# 재처리: ./replay.sh <파일명>  — error/<파일명> 을 inbox 로 되돌린다.
# error 에 없으면 아무것도 바꾸지 않고 실패로 끝낸다.
Q=/root/q

if [[ $# -ne 1 ]]; then
    echo "사용법: replay.sh <파일명>" >&2
    exit 2
fi
name=$1

# 경로가 섞인 이름은 거부 (../done/x.json, /절대경로 등)
if [[ -z $name || $name == */* || $name == . || $name == .. ]]; then
    echo "잘못된 파일명입니다: '$name'" >&2
    exit 2
fi

if [[ ! -f "$Q/error/$name" || -L "$Q/error/$name" ]]; then
    echo "error 폴더에 '$name' 이(가) 없습니다. 아무것도 바꾸지 않았습니다." >&2
    exit 1
fi
if [[ -e "$Q/inbox/$name" ]]; then
    echo "inbox 에 같은 이름이 이미 있습니다: '$name'" >&2
    exit 1
fi

mv -- "$Q/error/$name" "$Q/inbox/$name" || exit 1
echo "재처리 대기열로 되돌림: $name"
