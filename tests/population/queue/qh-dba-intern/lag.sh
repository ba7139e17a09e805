#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD -- backlog check, Nagios-style exit codes:
#   0 OK        inbox <= THRESHOLD
#   2 CRITICAL  inbox >  THRESHOLD
#   3 UNKNOWN   bad arguments
# Always one line on stdout: inbox=<n> processing=<n> error=<n>
set -o nounset

if [ $# -ne 2 ]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 3
fi
QDIR=$1
THRESHOLD=$2
case $THRESHOLD in
    ''|*[!0-9]*) echo "lag.sh: THRESHOLD must be a non-negative integer" >&2; exit 3 ;;
esac

# regular files directly in the directory; one byte per file so odd names cannot skew wc
count_files() {
    find "$1" -mindepth 1 -maxdepth 1 -type f -printf 'x' 2>/dev/null | wc -c
}

INBOX=$(count_files "$QDIR/inbox")
PROCESSING=$(count_files "$QDIR/processing")
ERROR=$(count_files "$QDIR/error")

echo "inbox=$INBOX processing=$PROCESSING error=$ERROR"

if [ "$INBOX" -gt "$THRESHOLD" ]; then
    exit 2
fi
exit 0
