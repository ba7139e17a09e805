#!/bin/sh
# replay.sh FILENAME : error/FILENAME 을 inbox/ 로 되돌린다
Q="${LAB_ROOT:-/root}/q"
f="$1"

# 경로가 아닌 파일 이름만 받는다 (../done/x.json, /tmp/x 는 거절)
if [ -z "$f" ] || [ "$(basename -- "$f")" != "$f" ]; then
    echo "usage: replay.sh FILENAME (a file in $Q/error)" >&2
    exit 2
fi
if [ ! -f "$Q/error/$f" ]; then
    echo "not in error/: $f" >&2
    exit 1
fi
mv -- "$Q/error/$f" "$Q/inbox/$f"
