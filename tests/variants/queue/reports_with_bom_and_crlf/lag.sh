#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD -- regular files directly inside each directory
q=${1:?usage: lag.sh QUEUE_DIR THRESHOLD}
limit=${2:?usage: lag.sh QUEUE_DIR THRESHOLD}
n() { find "$q/$1" -mindepth 1 -maxdepth 1 -type f -printf . | wc -c; }
inbox=$(n inbox)
printf 'inbox=%d processing=%d error=%d\r\n' "$inbox" "$(n processing)" "$(n error)"
(( inbox > limit )) && exit 1
exit 0
