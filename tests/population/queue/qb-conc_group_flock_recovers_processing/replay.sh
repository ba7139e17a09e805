#!/usr/bin/env bash
# usage: replay.sh FILENAME   (moves error/FILENAME back to inbox/)
# serialised with flock so two replays of the same file can't both "succeed"
set -u
Q=${LAB_ROOT:-/root}/q
name=${1-}
if [[ -z $name || $name == */* || $name == . || $name == .. ]]; then
    echo "replay: need a plain file name that is in error/, got '$name'" >&2
    exit 2
fi
# lock the error/ directory itself: no lock file of my own left in the queue
exec 9<"$Q/error" || exit 1
flock -w 10 9 || { echo "replay: lock busy" >&2; exit 75; }
src=$Q/error/$name
dst=$Q/inbox/$name
if [[ ! -f $src || -L $src ]]; then
    echo "replay: no such file in error/: $name" >&2
    exit 1
fi
if [[ -e $dst ]]; then
    echo "replay: inbox/$name exists, not overwriting" >&2
    exit 1
fi
mv -T -- "$src" "$dst" || exit 1
echo "replayed $name"
