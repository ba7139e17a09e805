#!/bin/bash
# lag.sh QDIR LIMIT
if [ $# -lt 2 ]; then
    echo "usage: lag.sh QDIR LIMIT" >&2
    exit 2
fi
n() {
    find "$1" -mindepth 1 -maxdepth 1 -type f -print0 2>/dev/null | tr -cd '\0' | wc -c
}
in=$(n "$1/inbox")
pr=$(n "$1/processing")
er=$(n "$1/error")
echo "inbox=$in processing=$pr error=$er"
if (( in > $2 )); then
    exit 1
fi
