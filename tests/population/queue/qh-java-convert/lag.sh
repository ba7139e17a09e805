#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
# Output : inbox=<n> processing=<n> error=<n>
# Exit   : 0 if inbox <= THRESHOLD, 1 if inbox > THRESHOLD, 2 on bad usage

readonly USAGE="usage: lag.sh QUEUE_DIR THRESHOLD"
if [[ $# -ne 2 ]]; then echo "$USAGE" >&2; exit 2; fi
readonly QUEUE_DIR="$1"
readonly THRESHOLD="$2"
if [[ ! "$THRESHOLD" =~ ^[0-9]+$ ]]; then echo "$USAGE" >&2; exit 2; fi

function countRegularFiles() {
    local directory="$1"
    local -i count=0
    local entry
    shopt -s nullglob dotglob
    for entry in "$directory"/*; do
        if [[ -f "$entry" && ! -L "$entry" ]]; then
            count+=1
        fi
    done
    echo "$count"
}

inboxCount=$(countRegularFiles "$QUEUE_DIR/inbox")
processingCount=$(countRegularFiles "$QUEUE_DIR/processing")
errorCount=$(countRegularFiles "$QUEUE_DIR/error")

echo "inbox=${inboxCount} processing=${processingCount} error=${errorCount}"

if (( inboxCount > 10#$THRESHOLD )); then
    exit 1
fi
exit 0
