#!/bin/bash
dir="$1"
limit="$2"
# ls -p marks directories with a trailing /: count the rest
inbox=$(ls -p "$dir/inbox" | grep -vc '/$')
processing=$(ls -p "$dir/processing" | grep -vc '/$')
error=$(ls -p "$dir/error" | grep -vc '/$')
echo "inbox=$inbox processing=$processing error=$error"
if [ "$inbox" -gt "$limit" ]; then
  exit 1
fi
exit 0
