#!/bin/sh
c(){ find "$1/$2" -maxdepth 1 -type f | wc -l; }; i=$(c "$1" inbox); echo "inbox=$i processing=$(c "$1" processing) error=$(c "$1" error)"; [ "$i" -gt "$2" ] && exit 1
