#!/bin/bash
for d in inbox processing error;do c[${#c[@]}]=$(find "$1/$d" -maxdepth 1 -type f|wc -l);done
echo "inbox=${c[0]} processing=${c[1]} error=${c[2]}";((c[0]<=$2))
