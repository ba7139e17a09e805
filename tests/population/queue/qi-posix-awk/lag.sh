#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
# prints  inbox=<n> processing=<n> error=<n>  and exits 1 when inbox > THRESHOLD
usage() { echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 2; }
[ $# -eq 2 ] || usage
[ -d "$1" ] || { echo "$0: $1: not a directory" >&2; exit 2; }
case ${2#-} in ''|*[!0-9]*) usage ;; esac

# regular files directly in $1 (dot files too); no ls parsing
count() {
    n=0
    for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
        [ -f "$f" ] && n=$((n + 1))
    done
    echo $n
}

i=$(count "$1/inbox")
p=$(count "$1/processing")
e=$(count "$1/error")
echo "inbox=$i processing=$p error=$e"
# awk compares numbers, so a long threshold does not overflow test(1)
awk -v n="$i" -v t="$2" 'BEGIN { exit (n + 0 > t + 0) ? 1 : 0 }'
