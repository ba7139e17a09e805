#!/usr/bin/env bash
# Replay one rejected message: error/FILENAME -> inbox/FILENAME.
# If FILENAME is not a plain file directly inside error/, nothing is touched and the exit code is 1.
set -euo pipefail

readonly QUEUE_ROOT="${LAB_ROOT:-/root}/q"
readonly ERROR_DIR="$QUEUE_ROOT/error"
readonly INBOX_DIR="$QUEUE_ROOT/inbox"

fail() { echo "replay.sh: $*" >&2; exit 1; }

[[ $# -eq 1 ]] || fail "usage: replay.sh FILENAME"
name=$1
[[ -n $name ]] || fail "empty file name"

source_path=$(realpath -m -- "$ERROR_DIR/$name")
[[ $(dirname -- "$source_path") == "$(realpath -m -- "$ERROR_DIR")" ]] || fail "'$name' is not a file inside error/"
[[ -f $source_path && ! -L $source_path ]] || fail "'$name' not found in error/"

mv -n -- "$source_path" "$INBOX_DIR/"
[[ ! -e $source_path ]] || fail "could not move '$name' (already in inbox?)"
echo "replayed $name"
