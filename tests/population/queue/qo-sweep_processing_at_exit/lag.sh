#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
[ "$#" -eq 2 ] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }

files_in() {
    n=0
    # *, hidden names, and names starting with ".." - but not . and .. themselves
    for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
        if [ -f "$f" ] && [ ! -h "$f" ]; then
            n=$((n + 1))
        fi
    done
    echo "$n"
}

i=$(files_in "$1/inbox")
p=$(files_in "$1/processing")
e=$(files_in "$1/error")
echo "inbox=$i processing=$p error=$e"
[ "$i" -le "$2" ] || exit 1
