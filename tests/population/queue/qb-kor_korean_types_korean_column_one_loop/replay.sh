#!/bin/bash
# error/<파일명> 을 inbox/ 로 되돌림. 없으면 아무것도 안 하고 exit 1
Q=/root/q
[ $# -eq 1 ] || { echo "사용법: replay.sh <파일명>" >&2; exit 1; }
# 실제 경로를 풀어서 error 폴더 바로 아래 파일인지 확인 (../ 나 절대경로 차단)
real=$(realpath -e -- "$Q/error/$1" 2>/dev/null) || { echo "error 에 없음: $1" >&2; exit 1; }
if [ "$(dirname -- "$real")" != "$(realpath "$Q/error")" ] || [ ! -f "$real" ]; then
    echo "error 폴더의 파일이 아님: $1" >&2
    exit 1
fi
if [ -e "$Q/inbox/$(basename -- "$real")" ]; then
    echo "inbox 에 이미 같은 파일이 있음" >&2
    exit 1
fi
mv -- "$real" "$Q/inbox/" || exit 1
echo "inbox 로 이동: $1"
