#!/bin/bash
# usage: ./replay.sh <file name in error/>
f=$1
if [ -z "$f" ] || [ "$(basename -- "$f")" != "$f" ]; then
  echo "give me just a file name" >&2
  exit 1
fi
if [ ! -f "/root/q/error/$f" ]; then
  echo "$f is not in /root/q/error" >&2
  exit 1
fi
mv "/root/q/error/$f" "/root/q/inbox/$f"
echo "moved $f back to inbox"
