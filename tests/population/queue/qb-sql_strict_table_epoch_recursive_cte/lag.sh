#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD  -> inbox=<n> processing=<n> error=<n>
# exit 3 when inbox > THRESHOLD, exit 2 on bad usage
[ $# -eq 2 ] || { echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 2; }
case $2 in ''|*[!0-9]*) echo "THRESHOLD must be a non-negative integer" >&2; exit 2;; esac

count() {
    # regular files directly in the dir; one dot per file so odd names can't confuse wc -l
    find "$1/" -mindepth 1 -maxdepth 1 -type f -printf . 2>/dev/null | wc -c
}
i=$(count "$1/inbox"); p=$(count "$1/processing"); e=$(count "$1/error")
echo "inbox=$i processing=$p error=$e"
if [ "$i" -gt "$2" ]; then exit 3; fi
exit 0
