#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD -- thin wrapper, the logic is in qtool.py / qlib.py
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$here/qtool.py" ] || here=/root/q
[ $# -eq 2 ] || { echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2; exit 2; }
exec python3 "$here/qtool.py" lag "$1" "$2"
