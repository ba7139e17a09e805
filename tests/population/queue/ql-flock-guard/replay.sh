#!/bin/bash
# replay.sh FILENAME  (error -> inbox)
Q=/root/q
NAME=$1
if ! [[ $NAME =~ ^[^/]+$ ]] || [[ $NAME == . || $NAME == .. ]]; then
    echo "bad file name: '$NAME'" >&2
    exit 2
fi
if [[ ! -f $Q/error/$NAME ]]; then
    echo "not found in error/: $NAME" >&2
    exit 1
fi
mv -n -- "$Q/error/$NAME" "$Q/inbox/$NAME"
# mv -n 는 덮어쓰기 안하면 조용히 0 을 줄 수도 있어서 다시 확인
[[ -f $Q/inbox/$NAME && ! -e $Q/error/$NAME ]] || { echo "replay failed: $NAME" >&2; exit 1; }
