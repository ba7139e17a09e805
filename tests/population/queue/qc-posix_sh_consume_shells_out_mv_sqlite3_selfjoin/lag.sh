#!/bin/sh
# usage: lag.sh QUEUE_DIR THRESHOLD   (POSIX sh, no bashisms)
[ $# -eq 2 ] || { echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 2; }
cnt() {
	# regular files directly in $1; a name with a newline counts once (one '/' per file)
	find "$1" -mindepth 1 -maxdepth 1 -type f -printf '/' 2>/dev/null | awk '{ n += length($0) } END { print n + 0 }'
}
i=$(cnt "$1/inbox")
p=$(cnt "$1/processing")
e=$(cnt "$1/error")
echo "inbox=$i processing=$p error=$e"
awk -v n="$i" -v t="$2" 'BEGIN { exit !(n + 0 <= t + 0) }'
