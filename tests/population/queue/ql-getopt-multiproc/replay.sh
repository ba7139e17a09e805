#!/usr/bin/env bash
# replay.sh FILENAME   : /root/q/error/FILENAME -> /root/q/inbox/FILENAME
set -euo pipefail
Q=/root/q
ERR="$Q/error"
[ $# -eq 1 ] || { echo "usage: $0 FILENAME" >&2; exit 2; }

# 경로 정규화 해서 error/ 바로 아래 파일인지 확인 (../ 나 절대경로 막기)
src=$(realpath -s -m -- "$ERR/$1")
if [ "$(dirname -- "$src")" != "$ERR" ] || [ "$src" = "$ERR" ]; then
    echo "replay: refusing '$1'" >&2
    exit 3
fi
if [ ! -f "$src" ]; then
    echo "replay: not in error/: '$1'" >&2
    exit 1
fi
dst="$Q/inbox/$(basename -- "$src")"
# 동시에 두 번 돌려도 한 번만 옮겨지게 flock
exec 9>"$Q/.replay.lock"
flock 9
[ -f "$src" ] || { echo "replay: gone: '$1'" >&2; exit 1; }
mv -- "$src" "$dst"
echo "replayed: $(basename -- "$src")"
