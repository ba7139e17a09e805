#!/bin/bash
# replay.sh FILENAME
name="$1"
if [ -z "$name" ]; then
    echo "no file name given" >&2
    exit 1
fi
case "$name" in
    */*|.|..) echo "just the file name, no path" >&2; exit 1 ;;
esac
if [ ! -f "/root/q/error/$name" ]; then
    echo "$name not found in /root/q/error" >&2
    exit 1
fi
mv "/root/q/error/$name" "/root/q/inbox/$name"
echo "ok, $name is back in inbox"
