#!/usr/bin/env bash
# Usage: lag.sh <queueDir> <threshold>
# Output: inbox=<n> processing=<n> error=<n>
# Exit:   0 if inbox <= threshold, 1 if inbox > threshold, 2 on usage error
set -o nounset

usage() { echo "Usage: $(basename "$0") <queueDir> <threshold>" >&2; exit 2; }

[[ $# -eq 2 ]] || usage
queueDir="$1"
threshold="$2"
[[ "$threshold" =~ ^[0-9]+$ ]] || usage

countFiles() {
    local dir="$1"
    if [[ ! -d "$dir" ]]; then
        echo 0
        return
    fi
    find "$dir" -mindepth 1 -maxdepth 1 -type f -printf '\n' | wc -l
}

inboxCount=$(countFiles "$queueDir/inbox")
processingCount=$(countFiles "$queueDir/processing")
errorCount=$(countFiles "$queueDir/error")

echo "inbox=${inboxCount} processing=${processingCount} error=${errorCount}"

if (( inboxCount > threshold )); then
    exit 1
fi
exit 0
