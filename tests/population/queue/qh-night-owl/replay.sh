#!/usr/bin/env bash
# 재처리: replay.sh FILENAME
#   /root/q/error/FILENAME 을 /root/q/inbox/ 로 되돌림
#   error 에 없으면 아무것도 안 건드리고 0 이 아닌 코드로 종료
set -u
Q=/root/q

if [[ $# -ne 1 ]]; then
    echo "usage: $0 FILENAME" >&2
    exit 64
fi
name=$1

# 파일 "이름"만 받는다. ../done/x.json 이나 /etc/passwd 같은 경로는 거절
if [[ -z $name || $name == */* || $name == . || $name == .. ]]; then
    echo "파일명이 아님: '$name'" >&2
    exit 2
fi

src=$Q/error/$name
dst=$Q/inbox/$name

if [[ ! -f $src || -L $src ]]; then
    echo "error/ 에 그런 파일 없음: '$name'" >&2
    exit 1
fi
if [[ -e $dst ]]; then
    echo "inbox/ 에 같은 이름이 이미 있음, 덮어쓰지 않음: '$name'" >&2
    exit 1
fi

mv -- "$src" "$dst"
