#!/usr/bin/env python3
"""replay.sh FILENAME -- put /root/q/error/FILENAME back into /root/q/inbox/."""
import argparse
import os
import sys
from pathlib import Path

ROOT = Path("/root/q")

ap = argparse.ArgumentParser(prog="replay.sh")
ap.add_argument("filename")
name = ap.parse_args().filename
bad = (not name) or name in {".", ".."} or os.sep in name or "\0" in name
src = ROOT / "error" / name
if bad or src.is_symlink() or not src.is_file():
    print(f"replay.sh: no such file in error/: {name!r}", file=sys.stderr)
    sys.exit(1)
dst = ROOT / "inbox" / name
if dst.exists():
    print(f"replay.sh: inbox/{name} already exists", file=sys.stderr)
    sys.exit(1)
os.replace(src, dst)
print(f"replayed {name}")
