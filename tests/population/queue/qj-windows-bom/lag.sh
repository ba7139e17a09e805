#!/bin/bash
# 적체 모니터링: lag.sh <큐디렉터리> <임계치>
dir="$1"
limit="$2"
if [ -z "$dir" ] || [ -z "$limit" ]; then
  echo "usage: lag.sh <queue-dir> <threshold>" >&2
  exit 2
fi
cnt() {
  find "$1" -mindepth 1 -maxdepth 1 -type f -printf 'x' 2>/dev/null | wc -c
}
in_n=$(cnt "$dir/inbox")
pr_n=$(cnt "$dir/processing")
er_n=$(cnt "$dir/error")
echo "inbox=${in_n} processing=${pr_n} error=${er_n}"
if [ "$in_n" -gt "$limit" ]; then
  exit 1
fi
exit 0
