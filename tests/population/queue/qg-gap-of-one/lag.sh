#!/bin/bash
# usage: ./lag.sh <queue dir> <threshold>
q=$1
t=$2
count() {
  ls -A -p "$q/$1" | grep -vc '/$'
}
i=$(count inbox)
p=$(count processing)
e=$(count error)
echo "inbox=$i processing=$p error=$e"
if [ "$i" -gt "$t" ]; then
  exit 1
fi
exit 0
