#!/bin/bash
# lag.sh <queue dir> <threshold>
qdir="$1"
threshold="$2"
n_inbox=$(find "$qdir/inbox" -maxdepth 1 -type f -printf x 2>/dev/null | wc -c)
n_processing=$(find "$qdir/processing" -maxdepth 1 -type f -printf x 2>/dev/null | wc -c)
n_error=$(find "$qdir/error" -maxdepth 1 -type f -printf x 2>/dev/null | wc -c)
echo "inbox=$n_inbox processing=$n_processing error=$n_error"
if [ "$n_inbox" -gt "$threshold" ]; then
    exit 1
fi
exit 0
