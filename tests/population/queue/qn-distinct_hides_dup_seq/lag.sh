#!/bin/bash
if [ $# -ne 2 ]; then
    echo "usage: $0 QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
count() { find "$1" -mindepth 1 -maxdepth 1 -type f | wc -l; }
IN=$(count "$1/inbox")
PR=$(count "$1/processing")
ER=$(count "$1/error")
echo "inbox=$IN processing=$PR error=$ER"
if (( IN > $2 )); then
    exit 1
fi
