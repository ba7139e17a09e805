#!/bin/bash
# check the backlog
if [ "$#" != "2" ]; then
    echo "usage: lag.sh <queue dir> <threshold>"
    exit 2
fi
QDIR=$1
MAX=$2
INBOX=`find "$QDIR/inbox" -maxdepth 1 -type f | wc -l`
PROC=`find "$QDIR/processing" -maxdepth 1 -type f | wc -l`
ERR=`find "$QDIR/error" -maxdepth 1 -type f | wc -l`
echo "inbox=$INBOX processing=$PROC error=$ERR"
if (( INBOX > MAX )); then
    exit 1
else
    exit 0
fi
