#!/usr/bin/env bash
# lag.sh QUEUE_DIR THRESHOLD
# I trust my Python more than my bash, so bash only hands the arguments over.
exec python3 - "$@" <<'PY'
"""Backlog monitor.

Prints exactly one line: inbox=<n> processing=<n> error=<n>
Exit status: 0 when inbox <= THRESHOLD, otherwise the number of files over the
threshold (capped at 99, never 0). 100 = usage error.
"""
import os
import sys


def regular_files(path: str) -> int:
    """Regular files directly inside path (no subdirectories, no symlinks)."""
    try:
        with os.scandir(path) as it:
            return sum(1 for e in it if e.is_file(follow_symlinks=False))
    except (FileNotFoundError, NotADirectoryError):
        return 0


def main(argv: list) -> int:
    if len(argv) != 2:
        print("usage: lag.sh QUEUE_DIR THRESHOLD", file=sys.stderr)
        return 100
    qdir, raw = argv
    try:
        threshold = int(raw)
    except ValueError:
        print(f"lag.sh: THRESHOLD is not an integer: {raw!r}", file=sys.stderr)
        return 100
    n = {d: regular_files(os.path.join(qdir, d)) for d in ("inbox", "processing", "error")}
    print(f"inbox={n['inbox']} processing={n['processing']} error={n['error']}")
    over = n["inbox"] - threshold
    return min(over, 99) if over > 0 else 0


sys.exit(main(sys.argv[1:]))
PY
