#!/usr/bin/env bash
set -euo pipefail
Q=${LAB_ROOT:-/root}/q
name=${1:-}
[[ -n $name ]] || { echo "usage: replay.sh FILENAME" >&2; exit 64; }

# error/ 바로 아래의 파일만: 경로를 풀어서 그 디렉터리가 error/ 인지 본다
src=$(realpath -m -- "$Q/error/$name")
if [[ $(dirname -- "$src") != "$(realpath -- "$Q/error")" || ! -f $src ]]; then
    echo "replay: $name is not a file in error/" >&2
    exit 1
fi
mv -- "$src" "$Q/inbox/"
echo "replayed: $name"
