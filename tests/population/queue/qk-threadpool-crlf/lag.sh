#!/usr/bin/env python3
""":"
# if someone runs this with `bash lag.sh`, bash lands here and hands over to python
exec python3 "$0" "$@"
":"""
# lag.sh QUEUE_DIR THRESHOLD
# one line "inbox=<n> processing=<n> error=<n>"; exit 1 if inbox > THRESHOLD
import sys
from pathlib import Path


def count(d: Path) -> int:
    if not d.is_dir():
        return 0
    return sum(1 for p in d.iterdir() if p.is_file() and not p.is_symlink())


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: lag.sh QUEUE_DIR THRESHOLD", file=sys.stderr)
        return 2
    qdir = Path(argv[0])
    try:
        threshold = int(argv[1])
    except ValueError:
        print(f"lag.sh: threshold must be an integer, got {argv[1]!r}", file=sys.stderr)
        return 2
    if not qdir.is_dir():
        print(f"lag.sh: no such queue dir {qdir}", file=sys.stderr)
        return 2
    n = {k: count(qdir / k) for k in ("inbox", "processing", "error")}
    print(f"inbox={n['inbox']} processing={n['processing']} error={n['error']}")
    return 1 if n["inbox"] > threshold else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
