#!/usr/bin/env python
"""lag.sh QUEUE_DIR THRESHOLD: the queue's depth on one line; exit 1 above THRESHOLD."""
import os
import sys


def count(folder: str) -> int:
    try:
        return sum(1 for e in os.scandir(folder) if e.is_file(follow_symlinks=False))
    except FileNotFoundError:
        return 0


if len(sys.argv) != 3 or not sys.argv[2].isdigit():
    sys.exit("usage: lag.sh QUEUE_DIR THRESHOLD")
queue, threshold = sys.argv[1], int(sys.argv[2])
inbox = count(os.path.join(queue, "inbox"))
processing = count(os.path.join(queue, "processing"))
error = count(os.path.join(queue, "error"))
print(f"inbox={inbox} processing={processing} error={error}")
sys.exit(1 if inbox > threshold else 0)
