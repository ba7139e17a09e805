#!/bin/bash
# usage: replay.sh FILE   (a name from /root/q/error)
name=$1
case "$name" in
    ""|*/*|.|..) echo "bad name" >&2; exit 2 ;;
esac
[ -f "/root/q/error/$name" ] || { echo "no such file in error/: $name" >&2; exit 1; }
[ -e "/root/q/inbox/$name" ] && { echo "already in inbox: $name" >&2; exit 1; }
mv -- "/root/q/error/$name" "/root/q/inbox/$name"
