#!/bin/sh
# lag.sh QUEUE_DIR THRESHOLD -- the counting is done by python3 below
exec python3 - "$@" <<'PY'
import os, sys

if len(sys.argv) != 3:
    print("usage: lag.sh QUEUE_DIR THRESHOLD", file=sys.stderr)
    sys.exit(2)
qdir, raw = sys.argv[1], sys.argv[2]
try:
    threshold = int(raw, 10)
except ValueError:
    print(f"lag.sh: THRESHOLD is not an integer: {raw!r}", file=sys.stderr)
    sys.exit(2)

def regular_files(sub):
    try:
        with os.scandir(os.path.join(qdir, sub)) as it:
            return sum(1 for e in it if e.is_file(follow_symlinks=False))
    except FileNotFoundError:
        return 0

n = {sub: regular_files(sub) for sub in ("inbox", "processing", "error")}
print(f"inbox={n['inbox']} processing={n['processing']} error={n['error']}")
sys.exit(1 if n["inbox"] > threshold else 0)
PY
