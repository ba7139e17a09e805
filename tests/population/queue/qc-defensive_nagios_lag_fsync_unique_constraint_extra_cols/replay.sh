#!/usr/bin/env bash
# replay.sh FILENAME : move error/FILENAME back to inbox/ for reprocessing.
#   exit 0 moved; 2 CRITICAL refused/not found (queue untouched); 3 UNKNOWN usage
set -u -o pipefail
readonly OK=0 CRITICAL=2 UNKNOWN=3
Q=${LAB_ROOT:-/root}/q

log() { echo "replay.sh: $*" >&2; }

[ $# -eq 1 ] || { log "UNKNOWN: usage: replay.sh FILENAME"; exit "$UNKNOWN"; }
name=$1

# a bare file name only: no path components, no traversal, nothing hidden in it
if [ -z "$name" ] || [ "$name" = "." ] || [ "$name" = ".." ] || [[ $name == */* ]]; then
    log "CRITICAL: refusing '$name': give a bare file name that is in $Q/error"
    exit "$CRITICAL"
fi

src=$Q/error/$name
dst=$Q/inbox/$name

if [ -L "$src" ] || [ ! -f "$src" ]; then
    log "CRITICAL: '$name' is not a regular file in $Q/error; queue left unchanged"
    exit "$CRITICAL"
fi
if [ -e "$dst" ]; then
    log "CRITICAL: $dst already exists; refusing to overwrite, queue left unchanged"
    exit "$CRITICAL"
fi

# same filesystem -> rename(2), atomic
if ! mv -n -- "$src" "$dst"; then
    log "CRITICAL: mv failed"
    exit "$CRITICAL"
fi
if [ -e "$src" ] || [ ! -f "$dst" ]; then
    log "CRITICAL: move did not complete as expected"
    exit "$CRITICAL"
fi
sync "$Q/inbox" "$Q/error" 2>/dev/null || true
log "OK: $name moved error/ -> inbox/"
exit "$OK"
