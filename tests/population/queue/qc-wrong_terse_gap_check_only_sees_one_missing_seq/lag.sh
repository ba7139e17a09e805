#!/bin/sh
i=`find "$1/inbox" -maxdepth 1 -type f|wc -l`
echo inbox=$i processing=`find "$1/processing" -maxdepth 1 -type f|wc -l` error=`find "$1/error" -maxdepth 1 -type f|wc -l`
test $i -le $2
