#!/bin/bash
# replay.sh FILE -- error/FILE back to inbox/
Q=/root/q
FILE=$1
if [[ -z $FILE || $FILE == */* || $FILE == . || $FILE == .. ]]; then
    echo "replay: give a plain file name" >&2
    exit 2
fi
if [[ ! -f $Q/error/$FILE ]]; then
    echo "replay: $FILE not in error/" >&2
    exit 1
fi
mv -n -- "$Q/error/$FILE" "$Q/inbox/$FILE"
[[ -f $Q/inbox/$FILE && ! -e $Q/error/$FILE ]]
