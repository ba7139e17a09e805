#!/bin/bash
# usage: lag.sh <queue dir> <threshold>
if [ $# -ne 2 ]; then
  echo "usage: $0 <queue dir> <threshold>" >&2
  exit 2
fi
cnt() {
  find "$1" -mindepth 1 -maxdepth 1 -type f -printf 'x\n' 2>/dev/null | wc -l
}
IN=$(cnt "$1/inbox")
PR=$(cnt "$1/processing")
ER=$(cnt "$1/error")
echo "inbox=$IN processing=$PR error=$ER"
if [ "$IN" -gt "$2" ]; then
  exit 1
fi
exit 0
