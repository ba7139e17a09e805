#!/bin/bash
dir="$1"
max="$2"
countFiles() { find "$dir/$1" -maxdepth 1 -type f | wc -l; }
inbox=$(countFiles inbox)
echo "inbox=$inbox processing=$(countFiles processing) error=$(countFiles error)"
if [ "$inbox" -gt "$max" ]; then
  exit 1
fi
