#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD
#   prints  inbox=N processing=N error=N
#   exit 1  when inbox > THRESHOLD, 0 otherwise, 2 on usage error
[ $# -eq 2 ] || { echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 2; }
case $2 in
    ''|*[!0-9]*) echo "$0: THRESHOLD must be a number" >&2; exit 2 ;;
esac

cnt() {
    # regular files right under $1 (no subdirs, no symlinks), dotfiles included
    n=0
    for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
        if [ -f "$f" ] && [ ! -h "$f" ]; then
            n=$((n + 1))
        fi
    done
    echo $n
}

i=$(cnt "$1/inbox")
p=$(cnt "$1/processing")
e=$(cnt "$1/error")
echo "inbox=$i processing=$p error=$e"
[ "$i" -le "$2" ]
