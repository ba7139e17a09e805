#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
# NUL-separated counting: a file name with a newline still counts once
usage() { echo "usage: $0 QUEUE_DIR THRESHOLD (THRESHOLD >= 0)" >&2; exit 2; }
[ $# -eq 2 ] || usage
case "$2" in ''|*[!0-9]*) usage ;; esac
count() {
    find "$1" -mindepth 1 -maxdepth 1 -type f -print0 2>/dev/null | tr -dc '\0' | wc -c
}
in=$(count "$1/inbox")
pr=$(count "$1/processing")
er=$(count "$1/error")
echo "inbox=$in processing=$pr error=$er"
if [ "$in" -gt "$2" ]; then
    exit 1
fi
exit 0
