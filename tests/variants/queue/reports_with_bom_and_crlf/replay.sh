#!/bin/bash
# replay.sh FILENAME
q="${LAB_ROOT:-/root}/q"
case "${1-}" in
    '' | . | .. | */*)
        echo "replay.sh: '${1-}' is not a file name" >&2
        exit 64
        ;;
esac
src="$q/error/$1"
if [[ ! -f $src || -L $src ]]; then
    echo "replay.sh: $src: no such file" >&2
    exit 1
fi
mv -- "$src" "$q/inbox/$1"
