#!/bin/bash
[ $# -eq 2 ] || { echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 2; }
for d in inbox processing error; do
    eval "$d=\$(find \"\$1/\$d\" -maxdepth 1 -type f 2>/dev/null | wc -l)"
done
echo "inbox=$inbox processing=$processing error=$error"
[ "$inbox" -le "$2" ]
