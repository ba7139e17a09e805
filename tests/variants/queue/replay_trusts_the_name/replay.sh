#!/usr/bin/env bash
# Step 8: replay.sh FILENAME -- move error/FILENAME back to inbox/ for another try.
set -u
q="${LAB_ROOT:-/root}/q"
name=${1-}

if [ ! -f "$q/error/$name" ]; then
    echo "replay: error/$name does not exist" >&2
    exit 1
fi
mv "$q/error/$name" "$q/inbox/" && echo "replayed $name"
