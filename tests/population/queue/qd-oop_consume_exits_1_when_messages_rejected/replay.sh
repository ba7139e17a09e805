#!/usr/bin/env bash
# replay.sh FILENAME : error/FILENAME -> inbox/FILENAME
set -uo pipefail
readonly Q=/root/q

err() { echo "$(basename "$0"): $*" >&2; exit 1; }

[[ $# -eq 1 ]] || err "usage: replay.sh FILENAME"
readonly NAME=$1
case "$NAME" in
    "" | . | .. | */*) err "invalid file name: '$NAME'" ;;
esac
[[ -f "$Q/error/$NAME" ]] || err "no such file in error/: $NAME"
[[ -e "$Q/inbox/$NAME" ]] && err "inbox/$NAME exists already"
mv -- "$Q/error/$NAME" "$Q/inbox/$NAME" || err "mv failed"
