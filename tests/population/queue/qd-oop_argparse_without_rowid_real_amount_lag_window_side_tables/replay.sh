#!/usr/bin/env bash
# replay.sh FILENAME -- move QUEUE_ROOT/error/FILENAME back to QUEUE_ROOT/inbox/
set -euo pipefail

QUEUE_ROOT=/root/q

fail() {
    echo "${0##*/}: $*" >&2
    exit 1
}

(( $# == 1 )) || { echo "usage: ${0##*/} FILENAME" >&2; exit 2; }
name=$1

[[ -n $name ]] || fail "empty file name"
[[ $name != */* ]] || fail "'$name': give a bare file name, not a path"
[[ $name != . && $name != .. ]] || fail "'$name': not a file name"

src=$QUEUE_ROOT/error/$name
dst=$QUEUE_ROOT/inbox/$name

[[ -f $src && ! -L $src ]] || fail "'$name' is not in $QUEUE_ROOT/error"
[[ ! -e $dst ]] || fail "'$name' already exists in $QUEUE_ROOT/inbox"

mv -- "$src" "$dst"
echo "replayed $name" >&2
