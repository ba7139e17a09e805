#!/usr/bin/env python3
"""replay.sh FILENAME: move error/FILENAME back to inbox/; anything else changes nothing."""
import os
import sys

Q = os.path.join(os.environ.get("LAB_ROOT", "/root"), "q")

if len(sys.argv) != 2:
    sys.exit("usage: replay.sh FILENAME")
name = sys.argv[1]
if name in ("", ".", "..") or "/" in name:
    sys.exit(f"replay: {name!r} is not a file name in error/")
source, target = os.path.join(Q, "error", name), os.path.join(Q, "inbox", name)
if not os.path.isfile(source) or os.path.islink(source):
    sys.exit(f"replay: error/{name} does not exist")
if os.path.lexists(target):
    sys.exit(f"replay: inbox/{name} already exists")
os.rename(source, target)
print(f"replayed {name}")
