#!/bin/bash
# Usage: ./replay.sh FILENAME
FILE="$1"

# only a bare file name, no path
# https://stackoverflow.com/questions/229551/how-to-check-if-a-string-contains-a-substring-in-bash
if [[ -z "$FILE" || "$FILE" == *"/"* || "$FILE" == "." || "$FILE" == ".." ]]; then
    echo "Invalid file name" >&2
    exit 1
fi

# https://stackoverflow.com/questions/638975/how-do-i-tell-if-a-file-does-not-exist-in-bash
if [ ! -f "/root/q/error/$FILE" ]; then
    echo "File not found in error: $FILE" >&2
    exit 1
fi

mv -- "/root/q/error/$FILE" "/root/q/inbox/$FILE"
