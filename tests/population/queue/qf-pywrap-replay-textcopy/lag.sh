#!/bin/bash
q=$1
t=$2
c() { find "$q/$1" -maxdepth 1 -type f -printf . | wc -c; }
i=$(c inbox) p=$(c processing) e=$(c error)
echo "inbox=$i processing=$p error=$e"
(( i <= t ))
