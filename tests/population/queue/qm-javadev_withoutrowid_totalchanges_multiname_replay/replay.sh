#!/usr/bin/env bash
# Usage: replay.sh <fileName> [<fileName> ...]
# Moves each /root/q/error/<fileName> back to /root/q/inbox.
# All-or-nothing: every name is validated first; if any name is bad or not in
# error/, nothing is moved and the exit code is non-zero.
set -o nounset
readonly QUEUE_ROOT=/root/q

if [[ $# -lt 1 ]]; then
    echo "Usage: $(basename "$0") <fileName> [<fileName> ...]" >&2
    exit 2
fi

declare -A seen=()
for fileName in "$@"; do
    if [[ -z "$fileName" || "$fileName" == */* || "$fileName" == "." || "$fileName" == ".." ]]; then
        echo "ERROR: invalid file name '$fileName'" >&2
        exit 2
    fi
    if [[ -n "${seen[$fileName]+x}" ]]; then
        echo "ERROR: '$fileName' given twice" >&2
        exit 2
    fi
    seen[$fileName]=1
    if [[ ! -f "$QUEUE_ROOT/error/$fileName" || -L "$QUEUE_ROOT/error/$fileName" ]]; then
        echo "ERROR: '$fileName' is not in $QUEUE_ROOT/error" >&2
        exit 1
    fi
    if [[ -e "$QUEUE_ROOT/inbox/$fileName" ]]; then
        echo "ERROR: '$fileName' already exists in $QUEUE_ROOT/inbox" >&2
        exit 1
    fi
done

for fileName in "$@"; do
    mv -- "$QUEUE_ROOT/error/$fileName" "$QUEUE_ROOT/inbox/$fileName" || exit 1
    echo "Replayed: $fileName"
done
exit 0
