#!/usr/bin/env bash
Q=$1
T=$2
inbox=$(ls "$Q/inbox" | wc -l)
processing=$(ls "$Q/processing" | wc -l)
error=$(ls "$Q/error" | wc -l)
echo "inbox=${inbox} processing=${processing} error=${error}"
if [ "$inbox" -gt "$T" ]; then
    exit 2
fi
exit 0
