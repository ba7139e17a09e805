#!/bin/bash
# 재처리: replay.sh 파일명
Q=${LAB_ROOT:-/root}/q
name=$1
# 빈 이름, 경로 포함(../ 나 /절대경로) 은 거부
if [ -z "$name" ] || [[ "$name" == */* ]] || [ "$name" = . ] || [ "$name" = .. ]; then
    echo "잘못된 파일명" >&2
    exit 2
fi
if [ ! -f "$Q/error/$name" ]; then
    echo "error 에 $name 없음" >&2
    exit 1
fi
if [ -e "$Q/inbox/$name" ]; then
    echo "inbox 에 같은 이름 있음" >&2
    exit 1
fi
mv "$Q/error/$name" "$Q/inbox/$name"
