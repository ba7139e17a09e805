#!/bin/bash
name="$1"
if [ -z "$name" ] || [[ "$name" == */* ]] || [ ! -f "/root/q/error/$name" ]; then
  echo "no such file in error/: $name" >&2
  exit 1
fi
mv "/root/q/error/$name" "/root/q/inbox/$name"
