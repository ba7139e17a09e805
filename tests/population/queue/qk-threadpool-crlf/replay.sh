#!/usr/bin/env python3
""":"
exec python3 "$0" "$@"
":"""
# replay.sh FILENAME : /root/q/error/FILENAME -> /root/q/inbox/FILENAME
# anything that is not a plain file name sitting in error/ -> exit 1, nothing moved
import os
import sys
from pathlib import Path

Q = Path("/root/q")


def die(msg: str) -> "NoReturn":
    print(f"replay.sh: {msg}", file=sys.stderr)
    sys.exit(1)


if len(sys.argv) != 2:
    die("usage: replay.sh FILENAME")
name = sys.argv[1]
if not name or os.path.basename(name) != name or name in (".", ".."):
    die(f"not a plain file name: {name!r}")
src, dst = Q / "error" / name, Q / "inbox" / name
if not src.is_file() or src.is_symlink():
    die(f"{name!r} is not in error/")
if os.path.lexists(dst):
    die(f"inbox/{name} exists already")
os.rename(src, dst)
print(f"replayed {name} -> inbox/")
