#!/usr/bin/env python3
# replay.sh FILENAME : move /root/q/error/FILENAME to /root/q/inbox/ (exit 1, no change, otherwise)
import sys
from pathlib import Path

Q = Path("/root/q")
if len(sys.argv) != 2:
    sys.exit("usage: replay.sh FILENAME")
name = sys.argv[1]
if name in ("", ".", "..") or "/" in name or "\0" in name:
    sys.exit(f"replay.sh: {name!r} is not a plain file name")
src, dst = Q / "error" / name, Q / "inbox" / name
if not src.is_file() or src.is_symlink():
    sys.exit(f"replay.sh: {name} is not in error/")
if dst.exists():
    sys.exit(f"replay.sh: inbox/{name} exists")
src.rename(dst)
