#!/bin/bash
# 적체 감시: lag.sh <큐 디렉터리> <임계치>
dir=$1
limit=$2

count_files() {
  local c=0
  for entry in "$1"/*; do
    [[ -f $entry ]] && ((c++))
  done
  echo $c
}

in_n=$(count_files "$dir/inbox")
proc_n=$(count_files "$dir/processing")
err_n=$(count_files "$dir/error")

echo "inbox=$in_n processing=$proc_n error=$err_n"

if [[ $in_n > $limit ]]; then
  exit 1
fi
