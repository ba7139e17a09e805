#!/usr/bin/env python3
"""lag.sh QUEUE_DIR THRESHOLD -- backlog monitor.

Prints `inbox=<n> processing=<n> error=<n>` (regular files directly inside each
directory) and exits 1 when the inbox count is above THRESHOLD (equal is fine).
"""
import argparse
import os
import sys
from pathlib import Path


def count_files(directory: Path) -> int:
    try:
        with os.scandir(directory) as it:
            return sum(1 for e in it if e.is_file(follow_symlinks=False))
    except FileNotFoundError:
        return 0


def main() -> int:
    ap = argparse.ArgumentParser(prog="lag.sh", description="queue backlog monitor")
    ap.add_argument("queue_dir", type=Path)
    ap.add_argument("threshold", type=int)
    args = ap.parse_args()
    if not args.queue_dir.is_dir():
        ap.error(f"not a directory: {args.queue_dir}")
    counts = {name: count_files(args.queue_dir / name) for name in ("inbox", "processing", "error")}
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    return 1 if counts["inbox"] > args.threshold else 0


if __name__ == "__main__":
    sys.exit(main())
