#!/bin/bash
#
# lag.sh <queueDir> <threshold>
#
set -euo pipefail

function usage() {
    echo "Usage: lag.sh <queueDir> <threshold>" >&2
    exit 2
}

function countFiles() {
    local directory="$1"
    if [[ ! -d "$directory" ]]; then
        echo 0
        return
    fi
    find "$directory" -mindepth 1 -maxdepth 1 -type f | wc -l
}

function main() {
    if [[ $# -ne 2 ]]; then
        usage
    fi
    local queueDir="$1"
    local threshold="$2"
    if ! [[ "$threshold" =~ ^-?[0-9]+$ ]]; then
        usage
    fi
    local digits="${threshold#-}"
    digits="${digits#"${digits%%[!0]*}"}"
    if (( ${#digits} > 18 )); then
        # longer than Long.MAX_VALUE: clamp
        [[ "$threshold" == -* ]] && threshold=-999999999999999999 || threshold=999999999999999999
    elif [[ "$threshold" == -* ]]; then
        threshold=$(( -10#${threshold#-} ))
    else
        threshold=$(( 10#${threshold} ))
    fi

    local inboxCount processingCount errorCount
    inboxCount=$(countFiles "$queueDir/inbox")
    processingCount=$(countFiles "$queueDir/processing")
    errorCount=$(countFiles "$queueDir/error")

    echo "inbox=${inboxCount} processing=${processingCount} error=${errorCount}"

    if (( inboxCount > threshold )); then
        return 1
    fi
    return 0
}

main "$@"
