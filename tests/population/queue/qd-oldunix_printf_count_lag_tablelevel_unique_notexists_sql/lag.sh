#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
#   prints  inbox=<n> processing=<n> error=<n>
#   exit 1 if inbox > THRESHOLD, 2 on usage error
[ $# -eq 2 ] || { echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 2; }
qd=$1
lim=$2
case $lim in
    ''|*[!0-9]*) echo "$0: THRESHOLD must be a number >= 0" >&2; exit 2 ;;
esac

# regular files right under $1; one '.' per file, so odd names count once
cnt() {
    find "$1" -mindepth 1 -maxdepth 1 -type f -exec printf '%.0s.' {} + 2>/dev/null | wc -c | tr -d ' '
}

i=$(cnt "$qd/inbox")
p=$(cnt "$qd/processing")
e=$(cnt "$qd/error")
echo "inbox=$i processing=$p error=$e"
[ "$i" -gt "$lim" ] && exit 1
exit 0
