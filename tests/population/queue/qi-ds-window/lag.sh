#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD
set -u
if [[ $# -ne 2 || ! -d $1 || ! $2 =~ ^-?[0-9]+$ ]]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD(integer)" >&2
    exit 2
fi
qdir=$1
digits=${2#-}
digits=${digits#"${digits%%[!0]*}"}      # drop leading zeros
if (( ${#digits} > 18 )); then           # too long for bash arithmetic
    [[ $2 == -* ]] && threshold=-999999999999999999 || threshold=999999999999999999
else
    threshold=$((10#${digits:-0}))
    [[ $2 == -* ]] && threshold=$((-threshold))
fi

n_files() {   # regular files directly inside $1
    [[ -d $1 ]] || { echo 0; return; }
    find "$1" -mindepth 1 -maxdepth 1 -type f -printf '.' | wc -c
}

inbox=$(n_files "$qdir/inbox")
processing=$(n_files "$qdir/processing")
error=$(n_files "$qdir/error")
echo "inbox=$inbox processing=$processing error=$error"
if (( inbox > threshold )); then
    exit 1
fi
exit 0
