#!/bin/sh
cd "$1" || exit 2
for d in inbox processing error; do echo "$d=$(find $d -maxdepth 1 -type f | wc -l)"; done | paste -sd' ' | awk -v t="$2" '{ print; split($1, a, "="); exit a[2] + 0 > t + 0 }'
