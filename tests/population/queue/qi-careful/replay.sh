#!/usr/bin/env bash
# replay.sh FILENAME
#   moves /root/q/error/FILENAME back to /root/q/inbox/FILENAME, bytes untouched (rename).
#   FILENAME must be a plain name (no '/', not '.' or '..', not empty) of a regular file that
#   is in error/.  Anything else: exit non-zero and the queue is left exactly as it was.
set -u
Q=${REPLAY_QUEUE:-/root/q}

fail() { echo "replay.sh: $1" >&2; exit "${2:-1}"; }

[ $# -eq 1 ] || fail "usage: replay.sh FILENAME" 2
name=$1
case $name in
    '')        fail "empty file name" 2 ;;
    . | ..)    fail "'$name' is not a file name" 2 ;;
    */*)       fail "'$name': give the bare file name, not a path" 2 ;;
esac
src=$Q/error/$name
dst=$Q/inbox/$name
[ -f "$src" ] && [ ! -L "$src" ] || fail "'$name' is not in $Q/error"
[ -e "$dst" ] || [ -L "$dst" ] && fail "'$name' already exists in $Q/inbox; not overwriting"
# -n: never clobber even if something appeared in between; then verify it really moved
mv -n -- "$src" "$dst" || fail "mv failed"
[ -e "$src" ] && fail "'$name' was not moved (inbox copy appeared concurrently?)"
echo "replayed: $name"
