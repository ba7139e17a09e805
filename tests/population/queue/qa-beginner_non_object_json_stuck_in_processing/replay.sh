#!/bin/bash
f="$1"
if [ "$f" = "" ]; then echo "need a file name"; exit 1; fi
if [ "$(basename "$f")" != "$f" ]; then echo "no paths please"; exit 1; fi
if [ "$f" = "." ] || [ "$f" = ".." ]; then echo "bad name"; exit 1; fi
if [ -f "/root/q/error/$f" ]; then
  mv "/root/q/error/$f" "/root/q/inbox/$f"
  echo "replayed $f"
  exit 0
fi
echo "$f is not in error/"
exit 1
