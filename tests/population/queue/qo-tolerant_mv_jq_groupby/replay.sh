#!/usr/bin/env bash
# replay.sh FILENAME : error/FILENAME -> inbox/FILENAME
# The resolved path must be a regular file sitting directly in error/.
# Names with a slash are refused outright; the realpath check also catches
# ".", ".." and symlinks that point out of error/.
Q=/root/q
if (( $# != 1 )); then
    echo "usage: replay.sh FILENAME" >&2
    exit 2
fi
case $1 in
    ''|*/*) echo "replay.sh: '$1' is not a bare file name" >&2; exit 2 ;;
esac
errdir=$(realpath -e -- "$Q/error") || exit 1
src=$(realpath -e -- "$Q/error/$1" 2>/dev/null) || {
    echo "replay.sh: '$1' is not in $errdir" >&2
    exit 1
}
if [[ $(dirname -- "$src") != "$errdir" || ! -f $src ]]; then
    echo "replay.sh: '$1' is not a file directly in $errdir" >&2
    exit 1
fi
dst=$Q/inbox/$(basename -- "$src")
if [[ -e $dst ]]; then
    echo "replay.sh: $dst already exists" >&2
    exit 1
fi
mv -T -- "$src" "$dst"
