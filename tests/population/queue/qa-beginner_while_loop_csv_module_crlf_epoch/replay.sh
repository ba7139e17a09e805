#!/bin/bash
FILE=$1
ERRDIR=/root/q/error
INBOX=/root/q/inbox
if [[ -z "$FILE" || "$FILE" == *"/"* || "$FILE" == "." || "$FILE" == ".." ]]; then
    echo "bad filename: '$FILE'"
    exit 1
fi
if [[ -f "$ERRDIR/$FILE" ]]; then
    mv "$ERRDIR/$FILE" "$INBOX/$FILE" && echo "replayed $FILE" && exit 0
    echo "mv failed"
    exit 1
else
    echo "$FILE not found in $ERRDIR"
    exit 1
fi
