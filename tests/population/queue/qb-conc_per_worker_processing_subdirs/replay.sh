#!/bin/sh
# replay.sh FILENAME -- error/FILENAME -> inbox/FILENAME with one rename(2); nothing else changes
exec python3 - "$@" <<'PY'
import os, sys
q = os.path.join(os.environ.get("LAB_ROOT", "/root"), "q")
if len(sys.argv) != 2:
    sys.exit("usage: replay.sh FILENAME")
name = sys.argv[1]
if name in ("", ".", "..") or os.sep in name or "\0" in name:
    print(f"replay: bad file name {name!r}", file=sys.stderr)
    sys.exit(2)
src, dst = os.path.join(q, "error", name), os.path.join(q, "inbox", name)
if not os.path.isfile(src) or os.path.islink(src):
    print(f"replay: {name!r} is not in error/", file=sys.stderr)
    sys.exit(1)
if os.path.lexists(dst):
    print(f"replay: inbox/{name} already exists", file=sys.stderr)
    sys.exit(1)
os.rename(src, dst)
print(f"replay: {name} -> inbox/")
PY
