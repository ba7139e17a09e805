#!/usr/bin/env python3
"""replay.sh FILENAME -- move /root/q/error/FILENAME back to /root/q/inbox.

FILENAME must be a bare file name: anything with a directory part
(../done/x.json, /abs/path, sub/x) is refused, so nothing outside error/ can move.
"""
import argparse
import shutil
import sys
from pathlib import Path

QUEUE = Path("/root/q")


def main() -> int:
    ap = argparse.ArgumentParser(prog="replay.sh", description=__doc__)
    ap.add_argument("filename")
    name = ap.parse_args().filename
    if Path(name).name != name:
        print(f"replay.sh: {name!r} is a path, give only the file name", file=sys.stderr)
        return 1
    src = QUEUE / "error" / name
    dst = QUEUE / "inbox" / name
    if not src.exists():
        print(f"replay.sh: {name!r} is not in error/", file=sys.stderr)
        return 1
    if dst.exists() and dst.is_file():
        print(f"replay.sh: inbox/{name} already exists", file=sys.stderr)
        return 1
    shutil.move(src, dst)
    print(f"replayed {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
