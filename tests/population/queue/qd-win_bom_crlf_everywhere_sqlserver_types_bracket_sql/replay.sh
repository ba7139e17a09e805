#!/bin/bash
# replay.sh <파일명>
# /root/q/error/<파일명> 을 /root/q/inbox 로 되돌립니다.

Q="/root/q"

if [ $# -ne 1 ]; then
    echo "사용법: replay.sh <파일명>" >&2
    exit 2
fi

NAME="$1"

# 경로(../ , /root/...)가 아니라 파일 이름만 받습니다
if [ -z "$NAME" ] || [ "$NAME" != "$(basename -- "$NAME")" ]; then
    echo "파일 이름만 주세요: '$NAME'" >&2
    exit 1
fi

if [ ! -f "$Q/error/$NAME" ]; then
    echo "error 폴더에 없습니다: $NAME" >&2
    exit 1
fi

if [ -e "$Q/inbox/$NAME" ]; then
    echo "inbox 에 같은 이름이 이미 있습니다: $NAME" >&2
    exit 1
fi

mv -- "$Q/error/$NAME" "$Q/inbox/$NAME"
echo "되돌림: $NAME"
