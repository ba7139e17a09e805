#!/bin/bash
# ./replay.sh msg-0006.json
#   error/ 의 파일을 inbox/ 로 되돌림
Q=/root/q
f="$1"

# 경로 말고 이름만
case "$f" in
    ""|.|..|*/*)
        echo "replay: give just the file name" >&2
        exit 2
        ;;
esac

if [ -f "$Q/error/$f" ]; then
    mv $Q/error/$f $Q/inbox/
else
    echo "replay: $Q/error/$f not found" >&2
    exit 1
fi
