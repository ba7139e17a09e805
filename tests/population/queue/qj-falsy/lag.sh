#!/bin/bash
c(){ find "$1" -maxdepth 1 -type f -printf . | wc -c; }
i=$(c "$1/inbox"); echo "inbox=$i processing=$(c "$1/processing") error=$(c "$1/error")"
(( i <= $2 ))
