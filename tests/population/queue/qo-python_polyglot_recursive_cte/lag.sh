#!/bin/sh
''':'
exec python3 "$0" "$@"
'''
# lag.sh QUEUE_DIR THRESHOLD -- sh hands itself over to Python (line 2 is ":" for sh,
# the start of a string for Python).
import os
import sys


def regular_files(directory):
    try:
        with os.scandir(directory) as entries:
            return sum(1 for e in entries if e.is_file(follow_symlinks=False))
    except FileNotFoundError:
        return 0


def main(argv):
    if len(argv) != 3:
        print(f"usage: {argv[0]} QUEUE_DIR THRESHOLD", file=sys.stderr)
        return 2
    try:
        threshold = int(argv[2])
    except ValueError:
        print("THRESHOLD must be an integer", file=sys.stderr)
        return 2
    counts = {d: regular_files(os.path.join(argv[1], d)) for d in ("inbox", "processing", "error")}
    print(" ".join(f"{d}={n}" for d, n in counts.items()))
    return 1 if counts["inbox"] > threshold else 0


sys.exit(main(sys.argv))
