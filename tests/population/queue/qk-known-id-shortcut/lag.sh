#!/usr/bin/env python3
""":"
exec python3 "$0" "$@"
":"""
# lag.sh QUEUE_DIR THRESHOLD   (python; the lines above let `bash lag.sh` work as well)
import argparse
import os
import sys

ap = argparse.ArgumentParser(prog="lag.sh")
ap.add_argument("queue_dir")
ap.add_argument("threshold", type=int)
a = ap.parse_args()
if not os.path.isdir(a.queue_dir):
    ap.error("not a directory: " + a.queue_dir)


def count(sub):
    path = os.path.join(a.queue_dir, sub)
    if not os.path.isdir(path):
        return 0
    with os.scandir(path) as it:
        return sum(1 for e in it if e.is_file(follow_symlinks=False))


c = {k: count(k) for k in ("inbox", "processing", "error")}
print("inbox={inbox} processing={processing} error={error}".format(**c))
sys.exit(1 if c["inbox"] > a.threshold else 0)
