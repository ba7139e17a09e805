#!/bin/bash
#
# replay.sh - reprocess a message that ended up in error/
# usage: replay.sh FILENAME
#   moves /root/q/error/FILENAME back to /root/q/inbox and runs the consumer
#   again so the message is reprocessed right away.
#   if FILENAME is not in error/, nothing is changed and the exit code is 1.
#
Q=/root/q

if [ $# -ne 1 ]; then
    echo "usage: replay.sh FILENAME" >&2
    exit 2
fi
NAME=$1

case "$NAME" in
    ""|.|..|*/*)
        echo "replay.sh: invalid file name '$NAME'" >&2
        exit 2
        ;;
esac

if [ ! -f "$Q/error/$NAME" ]; then
    echo "replay.sh: $NAME is not in $Q/error, nothing changed" >&2
    exit 1
fi
if [ -e "$Q/inbox/$NAME" ]; then
    echo "replay.sh: $Q/inbox/$NAME already exists, nothing changed" >&2
    exit 1
fi

mv -- "$Q/error/$NAME" "$Q/inbox/$NAME" || exit 1
echo "replay.sh: $NAME moved back to inbox, reprocessing"
python3 "$Q/consume.py"
