#!/bin/bash
# 사용: replay.sh 파일명
f=$1
case "$f" in
    ""|*/*|.|..) echo "파일명만 주세요" >&2; exit 2 ;;
esac
if [ ! -f "/root/q/error/$f" ]; then
    echo "error 에 $f 없음" >&2
    exit 1
fi
if [ -e "/root/q/inbox/$f" ]; then
    echo "inbox 에 이미 $f 있음" >&2
    exit 1
fi
mv "/root/q/error/$f" "/root/q/inbox/$f"
