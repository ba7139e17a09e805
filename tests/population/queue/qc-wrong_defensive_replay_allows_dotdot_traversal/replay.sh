#!/usr/bin/env bash
# replay.sh FILENAME -- move error/FILENAME back to inbox/ for another attempt.
# Exit: 0 moved, 2 CRITICAL (not found / would overwrite), 3 UNKNOWN (usage)
set -euo pipefail
QUEUE_ROOT="${LAB_ROOT:-/root}/q"

if [[ $# -ne 1 || -z "${1}" ]]; then
    echo "UNKNOWN: usage: replay.sh FILENAME" >&2
    exit 3
fi
FILE="$1"
SRC="${QUEUE_ROOT}/error/${FILE}"
DST="${QUEUE_ROOT}/inbox/$(basename -- "${FILE}")"

if [[ ! -f "${SRC}" ]]; then
    echo "CRITICAL: ${SRC} does not exist or is not a regular file; nothing changed" >&2
    exit 2
fi
if [[ -e "${DST}" ]]; then
    echo "CRITICAL: ${DST} already exists; refusing to overwrite" >&2
    exit 2
fi
mv -- "${SRC}" "${DST}"
sync
echo "OK: replayed ${FILE} -> inbox/" >&2
exit 0
