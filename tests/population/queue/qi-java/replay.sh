#!/bin/bash
#
# replay.sh <fileName>
#
set -euo pipefail

readonly QUEUE_DIR="/root/q"
readonly ERROR_DIR="${QUEUE_DIR}/error"
readonly INBOX_DIR="${QUEUE_DIR}/inbox"

function main() {
    if [[ $# -ne 1 ]]; then
        echo "Usage: replay.sh <fileName>" >&2
        return 2
    fi
    local fileName="$1"

    # only a bare file name is allowed (no paths)
    if [[ -z "$fileName" || "$fileName" == */* || "$fileName" == "." || "$fileName" == ".." ]]; then
        echo "IllegalArgument: '${fileName}'" >&2
        return 2
    fi
    if [[ ! -f "${ERROR_DIR}/${fileName}" ]]; then
        echo "FileNotFound: ${ERROR_DIR}/${fileName}" >&2
        return 1
    fi
    if [[ -e "${INBOX_DIR}/${fileName}" ]]; then
        echo "AlreadyExists: ${INBOX_DIR}/${fileName}" >&2
        return 1
    fi
    mv "${ERROR_DIR}/${fileName}" "${INBOX_DIR}/${fileName}"
    echo "Replayed ${fileName}"
}

main "$@"
