#!/bin/bash
d="$1"
i=$(find "$d/inbox" -maxdepth 1 -type f | wc -l)
p=$(find "$d/processing" -maxdepth 1 -type f | wc -l)
e=$(find "$d/error" -maxdepth 1 -type f | wc -l)
echo "inbox=$i processing=$p error=$e"
[ "$i" -ge "$2" ] && exit 1
exit 0
