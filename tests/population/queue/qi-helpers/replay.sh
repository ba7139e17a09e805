#!/bin/sh
# replay.sh FILENAME -- thin wrapper, the logic is in qtool.py / qlib.py
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$here/qtool.py" ] || here=/root/q
[ $# -eq 1 ] || { echo "usage: replay.sh FILENAME" >&2; exit 2; }
exec python3 "$here/qtool.py" replay "$1"
