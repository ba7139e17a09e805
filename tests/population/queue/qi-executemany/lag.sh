#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD -- one line of counts; exit 1 if inbox > THRESHOLD
[ $# -eq 2 ] || { echo "usage: $0 QUEUE_DIR THRESHOLD" >&2; exit 2; }
qd=$1
python3 - "$qd" "$2" <<'PY'
import os, sys
qd, raw = sys.argv[1], sys.argv[2]
try:
    threshold = int(raw)
except ValueError:
    sys.exit("lag.sh: THRESHOLD must be an integer")
def n(sub):
    d = os.path.join(qd, sub)
    if not os.path.isdir(d):
        return 0
    return sum(1 for e in os.scandir(d) if e.is_file(follow_symlinks=False))
counts = {k: n(k) for k in ("inbox", "processing", "error")}
print("inbox={inbox} processing={processing} error={error}".format(**counts))
sys.exit(1 if counts["inbox"] > threshold else 0)
PY
