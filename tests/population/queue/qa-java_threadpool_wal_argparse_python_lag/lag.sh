#!/usr/bin/env bash
# Backlog monitor. usage: lag.sh QUEUE_DIR THRESHOLD
# Exit codes: 0 = inbox <= THRESHOLD, 3 = inbox > THRESHOLD, 2 = bad usage.
exec python3 - "$@" <<'PY'
import os
import sys

EXIT_OK, EXIT_USAGE, EXIT_BACKLOG = 0, 2, 3


def count_regular_files(directory: str) -> int:
    try:
        with os.scandir(directory) as entries:
            return sum(1 for entry in entries if entry.is_file(follow_symlinks=False))
    except FileNotFoundError:
        return 0


def main(argv: list) -> int:
    if len(argv) != 2 or not argv[1].isdigit():
        print("usage: lag.sh QUEUE_DIR THRESHOLD", file=sys.stderr)
        return EXIT_USAGE
    queue_dir, threshold = argv[0], int(argv[1])
    counts = {name: count_regular_files(os.path.join(queue_dir, name)) for name in ("inbox", "processing", "error")}
    print(" ".join(f"{name}={value}" for name, value in counts.items()))
    return EXIT_BACKLOG if counts["inbox"] > threshold else EXIT_OK


sys.exit(main(sys.argv[1:]))
PY
