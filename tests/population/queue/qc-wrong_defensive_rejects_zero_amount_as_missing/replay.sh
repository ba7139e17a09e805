#!/usr/bin/env bash
# replay.sh FILENAME -- return a quarantined message to inbox/.
set -o nounset
Q="${LAB_ROOT:-/root}/q"
(( $# == 1 )) || { echo "UNKNOWN: usage: replay.sh FILENAME" >&2; exit 3; }
f=$1
case $f in
    ""|.|..|*/*) echo "CRITICAL: '$f' is not a plain file name" >&2; exit 2 ;;
esac
if [[ ! -f "$Q/error/$f" ]]; then
    echo "CRITICAL: error/$f not found; queue unchanged" >&2
    exit 2
fi
if [[ -e "$Q/inbox/$f" ]]; then
    echo "CRITICAL: inbox/$f exists; queue unchanged" >&2
    exit 2
fi
mv -T -- "$Q/error/$f" "$Q/inbox/$f" || { echo "CRITICAL: mv failed" >&2; exit 2; }
echo "OK: error/$f -> inbox/$f" >&2
