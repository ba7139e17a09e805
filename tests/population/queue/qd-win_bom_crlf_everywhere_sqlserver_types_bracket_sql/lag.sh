#!/bin/bash
# lag.sh <큐디렉터리> <임계치>
# 출력: inbox=<n> processing=<n> error=<n>
# inbox 건수가 임계치를 넘으면 종료코드 1

if [ $# -ne 2 ]; then
    echo "사용법: lag.sh <큐디렉터리> <임계치>" >&2
    exit 2
fi

QDIR="$1"
LIMIT="$2"

case "$LIMIT" in
    ''|*[!0-9]*)
        echo "임계치는 0 이상의 정수여야 합니다: $LIMIT" >&2
        exit 2
        ;;
esac

count_files() {
    if [ -d "$1" ]; then
        find "$1" -mindepth 1 -maxdepth 1 -type f | wc -l
    else
        echo 0
    fi
}

INBOX_N=$(count_files "$QDIR/inbox")
PROC_N=$(count_files "$QDIR/processing")
ERR_N=$(count_files "$QDIR/error")

echo "inbox=$INBOX_N processing=$PROC_N error=$ERR_N"

if [ "$INBOX_N" -gt "$LIMIT" ]; then
    exit 1
fi
exit 0
