#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD
#   또는 lag.sh --queue=DIR --threshold=N  /  lag.sh -q DIR -t N
set -u
usage() { echo "usage: $0 QUEUE_DIR THRESHOLD | --queue=DIR --threshold=N" >&2; exit 2; }

qdir="" th=""
args=$(getopt -o q:t:h -l queue:,threshold:,help -n lag.sh -- "$@") || usage
eval set -- "$args"
while true; do
    case "$1" in
        -q|--queue) qdir=$2; shift 2 ;;
        -t|--threshold) th=$2; shift 2 ;;
        -h|--help) usage ;;
        --) shift; break ;;
    esac
done
# 위치 인자 (랩 기본 형태)
[ -z "$qdir" ] && [ $# -ge 1 ] && { qdir=$1; shift; }
[ -z "$th" ] && [ $# -ge 1 ] && { th=$1; shift; }
[ -n "$qdir" ] && [ -n "$th" ] || usage
[[ "$th" =~ ^-?[0-9]+$ ]] || { echo "threshold must be an integer: $th" >&2; exit 2; }

count() {
    local n=0 f
    shopt -s nullglob dotglob
    for f in "$qdir/$1"/*; do
        [ -f "$f" ] && [ ! -L "$f" ] && n=$((n + 1))
    done
    echo "$n"
}

inbox=$(count inbox)
processing=$(count processing)
error=$(count error)
echo "inbox=$inbox processing=$processing error=$error"
(( inbox > th )) && exit 1
exit 0
