#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD -- the counting is done with os.scandir
exec python3 - "$@" <<'PY'
import os
import sys

if len(sys.argv) != 3:
    print("usage: lag.sh QUEUE_DIR THRESHOLD", file=sys.stderr)
    sys.exit(2)
qdir, threshold = sys.argv[1], int(sys.argv[2])


def files_in(d):
    with os.scandir(os.path.join(qdir, d)) as it:
        return sum(1 for e in it if e.is_file())


counts = {d: files_in(d) for d in ("inbox", "processing", "error")}
print(" ".join(f"{d}={n}" for d, n in counts.items()))
sys.exit(1 if counts["inbox"] > threshold else 0)
PY
