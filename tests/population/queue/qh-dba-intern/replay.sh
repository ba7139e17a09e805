#!/bin/bash
# replay.sh FILENAME -- move /root/q/error/FILENAME back to /root/q/inbox/.
# Anything that does not resolve to a regular file sitting directly in error/ is refused
# (exit 1) and nothing is touched.
set -o nounset
Q=/root/q

if [ $# -ne 1 ] || [ -z "$1" ]; then
    echo "usage: replay.sh FILENAME" >&2
    exit 2
fi
case $1 in
    */*|.|..) echo "replay.sh: expected a bare file name, got a path: $1" >&2; exit 2 ;;
esac

ERRDIR=$(realpath -e -- "$Q/error") || exit 1
if [ -L "$Q/error/$1" ]; then
    echo "replay.sh: refusing symlink error/$1" >&2
    exit 1
fi
SRC=$(realpath -e -- "$Q/error/$1" 2>/dev/null) || {
    echo "replay.sh: $1 is not in error/" >&2
    exit 1
}
if [ "$(dirname -- "$SRC")" != "$ERRDIR" ] || [ ! -f "$SRC" ]; then
    echo "replay.sh: $1 is not a file in error/" >&2
    exit 1
fi
BASE=$(basename -- "$SRC")
if [ -e "$Q/inbox/$BASE" ]; then
    echo "replay.sh: inbox/$BASE already exists, not overwriting" >&2
    exit 1
fi
mv -- "$SRC" "$Q/inbox/$BASE"
