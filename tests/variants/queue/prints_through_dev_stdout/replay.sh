#!/usr/bin/env bash
# Step 8: replay.sh FILENAME -- move error/FILENAME back to inbox/ for another try.
# Anything else changes nothing and exits non-zero.
set -eu
q="${LAB_ROOT:-/root}/q"
name=${1-}

# A plain file name only: with a slash, '../done/x.json' would move a file that is not in
# error/ (and `mv` alone would not stop it).
case $name in
    "" | . | .. | */*)
        echo "replay: '$name' is not a file name in error/" > /dev/stderr
        exit 2 ;;
esac
if [ ! -f "$q/error/$name" ]; then
    echo "replay: error/$name does not exist" > /dev/stderr
    exit 1
fi
if [ -e "$q/inbox/$name" ]; then
    echo "replay: inbox/$name already exists" > /dev/stderr
    exit 1
fi
mv "$q/error/$name" "$q/inbox/$name" && echo "replayed $name" > /dev/stdout
