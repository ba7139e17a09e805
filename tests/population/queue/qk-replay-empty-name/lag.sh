#!/usr/bin/env python3
"""lag.sh QUEUE_DIR THRESHOLD -> 'inbox=<n> processing=<n> error=<n>'; exit 1 if inbox > THRESHOLD."""
import argparse
import sys
from pathlib import Path

p = argparse.ArgumentParser(prog="lag.sh")
p.add_argument("queue_dir", type=Path)
p.add_argument("threshold", type=int)
a = p.parse_args()
if not a.queue_dir.is_dir():
    p.error(f"no such directory: {a.queue_dir}")


def n(sub: str) -> int:
    d = a.queue_dir / sub
    return len([f for f in d.iterdir() if f.is_file() and not f.is_symlink()]) if d.is_dir() else 0


inbox = n("inbox")
print(f"inbox={inbox} processing={n('processing')} error={n('error')}")
sys.exit(1 if inbox > a.threshold else 0)
