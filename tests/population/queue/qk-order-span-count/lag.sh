#!/usr/bin/env python3
# lag.sh QUEUE_DIR THRESHOLD
# prints: inbox=<n> processing=<n> error=<n> ; exit 1 when inbox > THRESHOLD, else 0
import sys
from pathlib import Path

if len(sys.argv) != 3:
    sys.exit("usage: lag.sh QUEUE_DIR THRESHOLD")
queue = Path(sys.argv[1])
try:
    threshold = int(sys.argv[2])
except ValueError:
    sys.exit(f"lag.sh: THRESHOLD must be an integer: {sys.argv[2]!r}")
if not queue.is_dir():
    sys.exit(f"lag.sh: {queue} is not a directory")


def files_in(sub: str) -> int:
    d = queue / sub
    return sum(p.is_file() and not p.is_symlink() for p in d.iterdir()) if d.is_dir() else 0


counts = {sub: files_in(sub) for sub in ("inbox", "processing", "error")}
print(" ".join(f"{k}={v}" for k, v in counts.items()))
sys.exit(1 if counts["inbox"] > threshold else 0)
