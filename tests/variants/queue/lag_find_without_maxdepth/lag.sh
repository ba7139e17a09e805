#!/bin/sh
set -e
QUEUE_DIR="$1"
THRESHOLD="$2"
cnt() { find "$QUEUE_DIR/$1" -type f | wc -l | tr -d ' '; }
IN=$(cnt inbox)
echo "inbox=$IN processing=$(cnt processing) error=$(cnt error)"
test "$IN" -le "$THRESHOLD"
