#!/bin/bash
# lag.sh QUEUE_DIR THRESHOLD
exec python3 - "$@" <<'PY'
import os
import sys

if len(sys.argv) != 3:
    sys.exit("usage: lag.sh QUEUE_DIR THRESHOLD")
qdir, threshold = sys.argv[1], int(sys.argv[2])


def files(sub):
    try:
        with os.scandir(os.path.join(qdir, sub)) as it:
            return sum(1 for e in it if e.is_file(follow_symlinks=False))
    except FileNotFoundError:
        return 0


inbox, processing, error = files("inbox"), files("processing"), files("error")
print(f"inbox={inbox} processing={processing} error={error}")
sys.exit(1 if inbox > threshold else 0)
PY
