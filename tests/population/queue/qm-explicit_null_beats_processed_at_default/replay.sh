#!/usr/bin/env bash
# replay.sh <file>: move /root/q/error/<file> back to /root/q/inbox
set -u
Q=/root/q
if [[ $# -ne 1 ]]; then
  echo "usage: replay.sh <file>" >&2
  exit 2
fi
f=$1
if [[ -z $f || $f == */* || $f == . || $f == .. ]]; then
  echo "replay: bad file name '$f'" >&2
  exit 2
fi
if [[ ! -f $Q/error/$f ]]; then
  echo "replay: $f not found in error/" >&2
  exit 1
fi
if [[ -e $Q/inbox/$f ]]; then
  echo "replay: inbox/$f already exists" >&2
  exit 1
fi
mv -- "$Q/error/$f" "$Q/inbox/$f"
