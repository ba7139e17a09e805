#!/bin/bash
# thin wrapper, the logic is in replay.py next to this file
exec python3 "$(dirname "$(readlink -f "$0")")/replay.py" "$@"
