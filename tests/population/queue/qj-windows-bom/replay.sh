#!/bin/bash
# 재처리: replay.sh <파일명>   error/<파일명> -> inbox/
Q=/root/q
f="$1"
if [ "$#" -ne 1 ] || [ -z "$f" ] || [ "$(basename -- "$f")" != "$f" ] || [ "$f" = "." ] || [ "$f" = ".." ]; then
  echo "파일명만 주세요 (경로 X)" >&2
  exit 1
fi
if [ ! -f "$Q/error/$f" ]; then
  echo "error 에 $f 없음" >&2
  exit 1
fi
if [ -e "$Q/inbox/$f" ]; then
  echo "inbox 에 같은 이름이 이미 있음" >&2
  exit 1
fi
mv "$Q/error/$f" "$Q/inbox/$f"
