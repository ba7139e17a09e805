#!/bin/bash
# replay.sh <파일명>   error/ -> inbox/
Q=/root/q
name="$1"
if [[ -z "$name" || "$name" == */* || "$name" == "." || "$name" == ".." ]]; then
    echo "usage: $0 FILENAME (이름만, 경로 X)" >&2
    exit 64
fi
if [[ ! -f "$Q/error/$name" ]]; then
    echo "$name: error/ 에 없음" >&2
    exit 1
fi
exec mv -- "$Q/error/$name" "$Q/inbox/$name"
