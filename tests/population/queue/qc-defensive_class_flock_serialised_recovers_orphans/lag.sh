#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD -- backlog probe. Exit 0 OK, 2 CRITICAL, 3 UNKNOWN.
set -o nounset
usage() { echo "UNKNOWN - usage: $(basename "$0") QUEUE_DIR THRESHOLD" >&2; exit 3; }
[[ $# -eq 2 ]] || usage
qdir=$1 limit=$2
[[ -d $qdir ]] || { echo "UNKNOWN - no such queue dir: $qdir" >&2; exit 3; }
[[ $limit =~ ^[0-9]+$ ]] || { echo "UNKNOWN - threshold not a non-negative integer: $limit" >&2; exit 3; }

count() {
    local n=0 f
    shopt -s nullglob dotglob
    for f in "$1"/*; do
        [[ -f $f && ! -L $f ]] && n=$((n + 1))
    done
    echo "$n"
}
in_n=$(count "$qdir/inbox")
pr_n=$(count "$qdir/processing")
er_n=$(count "$qdir/error")
printf 'inbox=%d processing=%d error=%d\n' "$in_n" "$pr_n" "$er_n"
if (( in_n > 10#$limit )); then
    echo "CRITICAL - inbox backlog $in_n exceeds $limit" >&2
    exit 2
fi
exit 0
