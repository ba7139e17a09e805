#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD  -- POSIX sh (no bashisms), counts regular files directly inside
[ $# -eq 2 ] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }
qdir=$1 limit=$2
case ${limit#-} in ''|*[!0-9]*) echo "threshold must be an integer" >&2; exit 2;; esac

count() {
    n=0
    for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
        [ -f "$f" ] && [ ! -L "$f" ] && n=$((n + 1))
    done
    echo $n
}

i=$(count "$qdir/inbox")
p=$(count "$qdir/processing")
e=$(count "$qdir/error")
echo "inbox=$i processing=$p error=$e"
[ "$i" -le "$limit" ]
