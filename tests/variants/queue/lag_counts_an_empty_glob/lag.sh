#!/bin/bash
# usage: lag.sh QUEUE_DIR THRESHOLD
how_many() {
    set -- "$1"/*
    echo $#
}
i=$(how_many "$1/inbox")
p=$(how_many "$1/processing")
e=$(how_many "$1/error")
echo "inbox=$i processing=$p error=$e"
[ "$i" -gt "$2" ] && exit 1
exit 0
