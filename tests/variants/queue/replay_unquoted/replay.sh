#!/bin/bash
Q=/root/q
if [ -n "$LAB_ROOT" ]; then Q=$LAB_ROOT/q; fi

case $1 in
  ""|*/*) echo "bad name" >&2; exit 1 ;;
esac

if [ -f $Q/error/$1 ]; then
  mv $Q/error/$1 $Q/inbox/
  echo "replayed $1"
else
  echo "$1 is not in error/" >&2
  exit 1
fi
