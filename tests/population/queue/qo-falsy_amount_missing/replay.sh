#!/bin/bash
# usage: replay.sh <file name in error/>
Q=/root/q
name="$1"
if [ -z "$name" ] || [[ "$name" == */* ]] || [ "$name" = "." ] || [ "$name" = ".." ]; then
  echo "invalid file name: '$name'" >&2
  exit 2
fi
if [ ! -f "$Q/error/$name" ]; then
  echo "not in error/: $name" >&2
  exit 1
fi
mv "$Q/error/$name" "$Q/inbox/$name"
