#!/usr/bin/env python3
"""lag.sh QUEUE_DIR THRESHOLD

Prints `inbox=<n> processing=<n> error=<n>`.
Exit status = how many inbox files are over the threshold (0 = within the limit),
so a cron wrapper can log how far behind the consumer is straight from $?.
"""
import argparse
import sys
from pathlib import Path


def count(d: Path) -> int:
    return sum(1 for p in d.iterdir() if p.is_file() and not p.is_symlink()) if d.is_dir() else 0


def main() -> None:
    ap = argparse.ArgumentParser(prog="lag.sh")
    ap.add_argument("queue_dir", type=Path)
    ap.add_argument("threshold", type=int)
    args = ap.parse_args()
    if not args.queue_dir.is_dir():
        ap.error(f"{args.queue_dir} is not a directory")
    inbox, processing, error = (count(args.queue_dir / d) for d in ("inbox", "processing", "error"))
    print(f"inbox={inbox} processing={processing} error={error}")
    sys.exit(max(0, inbox - args.threshold))


if __name__ == "__main__":
    main()
