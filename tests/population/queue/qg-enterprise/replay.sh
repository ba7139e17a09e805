#!/usr/bin/env bash
#
# replay.sh FILENAME
#   Moves error/FILENAME back to inbox/ for another attempt.
#   Refuses (non-zero, queue untouched) if FILENAME is not a file directly inside error/.
#
set -euo pipefail

readonly QUEUE_ROOT=${QUEUE_ROOT:-/root/q}
readonly ERROR_DIR="$QUEUE_ROOT/error"
readonly INBOX_DIR="$QUEUE_ROOT/inbox"

die() { echo "replay: $*" >&2; exit 1; }

[[ $# -eq 1 ]] || die "usage: $0 FILENAME"
name=$1
[[ -n $name ]] || die "empty file name"

candidate="$ERROR_DIR/$name"
[[ -f $candidate && ! -L $candidate ]] || die "not in error/: $name"

# resolve and make sure we did not walk out of error/ (../, absolute paths ...)
resolved=$(realpath -e -- "$candidate") || die "cannot resolve $name"
error_real=$(realpath -e -- "$ERROR_DIR")
[[ $(dirname -- "$resolved") == "$error_real" ]] || die "$name is not directly inside error/"

target="$INBOX_DIR/$(basename -- "$resolved")"
[[ ! -e $target ]] || die "inbox already contains $(basename -- "$resolved")"

mv -- "$resolved" "$target"
echo "replayed $(basename -- "$resolved")"
