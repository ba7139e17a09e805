#!/bin/sh
# replay.sh FILE : error/FILE -> inbox/FILE
Q=${LAB_ROOT:-/root}/q
case ${1-} in
  ""|*/*|.|..) echo "replay.sh: need a plain file name" >&2; exit 2 ;;
esac
[ -f "$Q/error/$1" ] || { echo "replay.sh: no such file in error/: $1" >&2; exit 1; }
exec mv -- "$Q/error/$1" "$Q/inbox/$1"
