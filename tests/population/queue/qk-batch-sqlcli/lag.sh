#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD -- backlog line; non-zero exit when inbox > THRESHOLD
# (the counting is in python; bash only checks the argument count)
if [ "$#" -ne 2 ]; then
    echo "usage: lag.sh QUEUE_DIR THRESHOLD" >&2
    exit 2
fi
exec python3 -c '
import os, sys
qdir, raw = sys.argv[1], sys.argv[2]
try:
    limit = int(raw)
except ValueError:
    sys.exit("lag.sh: threshold must be an integer")
if not os.path.isdir(qdir):
    sys.exit("lag.sh: not a directory: " + qdir)
def n(sub):
    p = os.path.join(qdir, sub)
    if not os.path.isdir(p):
        return 0
    with os.scandir(p) as it:
        return sum(e.is_file(follow_symlinks=False) for e in it)
inbox, processing, error = n("inbox"), n("processing"), n("error")
print(f"inbox={inbox} processing={processing} error={error}")
sys.exit(1 if inbox > limit else 0)
' "$@"
