#!/bin/bash
# replay.sh <file name>
if [ -z "$1" ]; then
    echo "usage: replay.sh FILENAME"
    exit 1
fi
if [[ "$1" == */* ]] || [ "$1" = "." ] || [ "$1" = ".." ]; then
    echo "please give only the file name"
    exit 1
fi
if [ -f "/root/q/error/$1" ]; then
    mv "/root/q/error/$1" "/root/q/inbox/"
    echo "moved $1 to inbox"
else
    echo "file $1 does not exist in error"
    exit 1
fi
