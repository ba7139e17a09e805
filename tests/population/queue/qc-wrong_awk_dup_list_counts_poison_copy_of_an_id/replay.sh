#!/bin/sh
Q=${LAB_ROOT:-/root}/q
[ $# -eq 1 ] || exit 2
case $1 in ''|.|..|*/*) echo "bad name" >&2; exit 1;; esac
[ -f "$Q/error/$1" ] || { echo "not in error/: $1" >&2; exit 1; }
exec mv "$Q/error/$1" "$Q/inbox/"
