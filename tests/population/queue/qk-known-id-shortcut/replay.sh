#!/usr/bin/env python3
""":"
exec python3 "$0" "$@"
":"""
# replay.sh FILENAME -- /root/q/error/FILENAME back to /root/q/inbox/
import os
import sys
from pathlib import Path

Q = Path("/root/q")


def fail(msg):
    print("replay.sh: " + msg, file=sys.stderr)
    sys.exit(1)


if len(sys.argv) != 2:
    fail("usage: replay.sh FILENAME")
name = sys.argv[1]
if not name or name in (".", "..") or "/" in name or "\0" in name:
    fail(f"not a file name: {name!r}")
src = Q / "error" / name
if src.is_symlink() or not src.is_file():
    fail(f"{name!r} is not in error/")
dst = Q / "inbox" / name
if os.path.lexists(dst):
    fail(f"inbox/{name} already exists")
os.rename(src, dst)
print("replayed", name)
