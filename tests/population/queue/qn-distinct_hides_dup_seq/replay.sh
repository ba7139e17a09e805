#!/bin/bash
# replay.sh FILE
f=$1
case "$f" in
    ""|*/*|.|..) echo "bad name" >&2; exit 1 ;;
esac
[ -f "/root/q/error/$f" ] || { echo "not found in error/: $f" >&2; exit 1; }
mv -- "/root/q/error/$f" /root/q/inbox/
