#!/bin/bash
# 재처리: error 의 파일 하나를 inbox 로 되돌린다
# (bash 변수명은 한글 안 됨 -> 영어로)
# 파일이 error 에 없으면 아무것도 바꾸지 않고 0 이 아닌 종료코드
Q=/root/q
NAME="${1-}"

# 경로가 섞인 이름(../, 절대경로), 빈 이름은 거부
if [ -z "$NAME" ] || [ "$NAME" != "$(basename -- "$NAME")" ] || [ "$NAME" = "." ] || [ "$NAME" = ".." ]; then
    echo "잘못된 파일명: '$NAME'" >&2
    exit 2
fi

TARGET="$Q/error/$NAME"
if [ ! -f "$TARGET" ]; then
    echo "error 에 없는 파일: $NAME" >&2
    exit 1
fi
if [ -e "$Q/inbox/$NAME" ]; then
    echo "inbox 에 같은 이름이 이미 있음: $NAME" >&2
    exit 1
fi
mv "$TARGET" "$Q/inbox/" && echo "재처리 대기열로 이동: $NAME"
