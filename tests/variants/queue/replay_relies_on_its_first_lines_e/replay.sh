#!/bin/bash -e
# replay.sh FILENAME: error/FILENAME back to inbox/. Every check is a command that fails,
# and the -e of the first line stops the script at the first one that does.
q="${LAB_ROOT:-/root}/q"
name="${1-}"
[[ -n $name && $name != . && $name != .. && $name != */* ]]
test -f "$q/error/$name"
test ! -e "$q/inbox/$name"
mv -- "$q/error/$name" "$q/inbox/$name"
echo "replayed $name"
