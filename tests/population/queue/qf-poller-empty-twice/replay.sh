#!/bin/bash
# usage: replay.sh FILENAME
Q=/root/q
name="$1"
if [ -z "$name" ] || [[ "$name" == */* ]] || [ "$name" = "." ] || [ "$name" = ".." ]; then
  echo "invalid file name" >&2
  exit 1
fi
if [ ! -f "$Q/error/$name" ]; then
  echo "$name is not in error/" >&2
  exit 1
fi
mv -- "$Q/error/$name" "$Q/inbox/$name"
