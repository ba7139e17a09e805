#!/bin/bash
# replay.sh FILE : move /root/q/error/FILE back to /root/q/inbox
ERR=/root/q/error
INBOX=/root/q/inbox
f="$1"
if [ ! -f "$ERR/$f" ]; then
    echo "no such file in error/: $f" >&2
    exit 1
fi
mv "$ERR/$f" "$INBOX/"
echo "moved $f back to inbox"
