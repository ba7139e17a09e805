#!/bin/bash
# lag.sh QDIR THRESHOLD
c() { find "$1/$2" -mindepth 1 -maxdepth 1 -type f | wc -l; }
in=$(c "$1" inbox)
pr=$(c "$1" processing)
er=$(c "$1" error)
echo "inbox=$in processing=$pr error=$er"
[ "$in" -gt "$2" ] && exit 1
