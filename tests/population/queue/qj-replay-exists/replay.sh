#!/bin/bash
# Usage: ./replay.sh <filename>
# moves /root/q/error/<filename> back to /root/q/inbox/
ERROR_DIR=/root/q/error
INBOX_DIR=/root/q/inbox
FILE="$1"

# don't allow paths like ../done/x.json or /etc/passwd (path traversal)
if [[ "$FILE" == *"/"* ]]; then
  echo "Error: give only the file name, not a path" >&2
  exit 1
fi

if [ -e "$ERROR_DIR/$FILE" ]; then
  mv "$ERROR_DIR/$FILE" "$INBOX_DIR/" && echo "Moved $FILE back to inbox"
else
  echo "Error: $FILE not found in $ERROR_DIR" >&2
  exit 1
fi
