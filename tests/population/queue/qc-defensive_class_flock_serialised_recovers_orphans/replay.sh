#!/usr/bin/env bash
# replay.sh FILENAME -- put a quarantined message back on the queue.
# Exit 0 moved, 1 refused (nothing changed), 3 usage.
set -o nounset -o pipefail
Q=$(realpath -m -- "${LAB_ROOT:-/root}/q")
(( $# == 1 )) || { echo "usage: replay.sh FILENAME" >&2; exit 3; }
name=$1
err_dir=$Q/error
src=$(realpath -m -s -- "$err_dir/$name")
# the resolved path must sit directly inside error/ and be exactly error/<name>
if [[ -z $name || $name == *"/"* || $src != "$err_dir/$name" || $(dirname -- "$src") != "$err_dir" ]]; then
    echo "replay.sh: refusing suspicious name '$name'" >&2
    exit 1
fi
if [[ ! -f $src || -L $src ]]; then
    echo "replay.sh: '$name' is not in $err_dir; nothing changed" >&2
    exit 1
fi
if [[ -e $Q/inbox/$name ]]; then
    echo "replay.sh: inbox/$name already exists; nothing changed" >&2
    exit 1
fi
mv -n -T -- "$src" "$Q/inbox/$name" || exit 1
echo "replay.sh: error/$name -> inbox/$name" >&2
