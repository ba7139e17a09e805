#!/bin/bash
# replay.sh FILENAME : /root/q/error/FILENAME -> /root/q/inbox/
Q=/root/q
f=$1

# 파일명만 받음. 경로/빈값 거부
case "$f" in
    ""|.|..|*/*)
        echo "replay: bad name '$f'" >&2
        exit 2
        ;;
esac

if [ ! -f "$Q/error/$f" ]; then
    echo "replay: no such file in error: $f" >&2
    exit 1
fi

mv -- "$Q/error/$f" "$Q/inbox/$f" || exit 1
echo "replayed $f"
