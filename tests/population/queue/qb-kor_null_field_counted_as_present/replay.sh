#!/bin/bash
# 사용법: replay.sh <파일명>  -- error 의 파일을 inbox 로 되돌림
Q=/root/q
f="$1"
case "$f" in
    ""|"."|".."|*/*) echo "파일명이 잘못됨: '$f'" >&2; exit 2 ;;
esac
if [ ! -f "$Q/error/$f" ]; then
    echo "error 에 없음: $f" >&2
    exit 1
fi
if [ -e "$Q/inbox/$f" ]; then
    echo "inbox 에 이미 있음: $f" >&2
    exit 1
fi
mv "$Q/error/$f" "$Q/inbox/$f" && echo "되돌림: $f"
