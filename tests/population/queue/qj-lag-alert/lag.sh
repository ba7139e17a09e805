#!/bin/bash
# lag.sh QDIR THRESHOLD -- backlog monitor (cron-friendly: non-zero exit + ALERT line when backlogged)
q=${1:?usage: lag.sh QDIR THRESHOLD}
max=${2:?usage: lag.sh QDIR THRESHOLD}
n() { find "$q/$1" -mindepth 1 -maxdepth 1 -type f -printf x | wc -c; }
inbox=$(n inbox) processing=$(n processing) error=$(n error)
echo "inbox=$inbox processing=$processing error=$error"
if (( inbox > max )); then
    echo "ALERT backlog: inbox $inbox > threshold $max"
    exit 1
fi
exit 0
