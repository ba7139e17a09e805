#!/usr/bin/env python3
"""replay.sh FILENAME -- move /root/q/error/FILENAME back to /root/q/inbox/.

Only a plain file name is accepted (no path parts). If that file is not in
error/, nothing is touched and the exit code is 1.
"""
import argparse
import os
import sys
from pathlib import Path

QUEUE = Path("/root/q")


def main() -> int:
    ap = argparse.ArgumentParser(prog="replay.sh")
    ap.add_argument("filename")
    name = ap.parse_args().filename
    if name in ("", ".", "..") or "/" in name or "\0" in name:
        print(f"replay: refusing name {name!r}", file=sys.stderr)
        return 1
    src = QUEUE / "error" / name
    dst = QUEUE / "inbox" / name
    if src.is_symlink() or not src.is_file():
        print(f"replay: {name!r} is not in error/", file=sys.stderr)
        return 1
    if dst.exists():
        print(f"replay: inbox/{name} already exists, not overwriting", file=sys.stderr)
        return 1
    os.rename(src, dst)  # same filesystem: atomic, bytes untouched
    print(f"replayed {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
