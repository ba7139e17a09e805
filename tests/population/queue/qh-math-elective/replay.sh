#!/bin/bash
# replay.sh FILENAME : error/FILENAME -> inbox/FILENAME. 없으면 아무것도 안 하고 exit 1
q=/root/q
(( $# == 1 )) && [[ -n $1 && $1 != */* && $1 != . && $1 != .. ]] || { echo "usage: replay.sh FILENAME" >&2; exit 2; }
[[ -f $q/error/$1 && ! -L $q/error/$1 && ! -e $q/inbox/$1 ]] || { echo "error/ 에 없음: $1" >&2; exit 1; }
mv -- "$q/error/$1" "$q/inbox/$1"
