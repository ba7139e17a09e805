#!/usr/bin/env bash
# usage: lag.sh QUEUE_DIR THRESHOLD
set -u
if (( $# != 2 )); then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
qdir=$1
limit=$2
shopt -s nullglob dotglob

count_files() {
    local n=0 f
    for f in "$1"/*; do
        if [[ -f $f && ! -L $f ]]; then
            n=$((n + 1))
        fi
    done
    echo "$n"
}

in=$(count_files "$qdir/inbox")
pr=$(count_files "$qdir/processing")
er=$(count_files "$qdir/error")
printf 'inbox=%d processing=%d error=%d\n' "$in" "$pr" "$er"

if (( in > limit )); then
    exit 3      # backlog
fi
exit 0
