#!/usr/bin/env bash
set -euo pipefail
QDIR="${LAB_ROOT:-/root}/q"
NAME="${1:-}"

if [[ -z "$NAME" || "$NAME" == */* || "$NAME" == "." || "$NAME" == ".." ]]; then
    echo "replay.sh: give a file name that is in $QDIR/error" >&2
    exit 2
fi
if [[ ! -e "$QDIR/error/$NAME" ]]; then
    echo "replay.sh: no such file in error/: $NAME" >&2
    exit 1
fi
mv "$QDIR/error/$NAME" "$QDIR/inbox/"
echo "moved $NAME back to inbox"
