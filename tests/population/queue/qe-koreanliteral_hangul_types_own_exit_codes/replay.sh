#!/bin/bash
# 8단계: replay.sh 파일명 -> error 의 그 파일을 inbox 로 되돌린다
# 종료코드: 0 성공, 3 error 에 없음, 4 파일명이 잘못됨
Q=/root/q
name="$1"

# 파일명만 허용 (경로, 빈 값, . / .. 은 거부) -> 큐 상태를 전혀 바꾸지 않음
if [ -z "$name" ] || [[ "$name" == */* ]] || [ "$name" = "." ] || [ "$name" = ".." ]; then
    echo "잘못된 파일명: '$name'" >&2
    exit 4
fi
if [ ! -f "$Q/error/$name" ]; then
    echo "error 에 없음: $name" >&2
    exit 3
fi
if [ -e "$Q/inbox/$name" ]; then
    echo "inbox 에 같은 이름이 이미 있음: $name" >&2
    exit 3
fi
mv "$Q/error/$name" "$Q/inbox/$name"
