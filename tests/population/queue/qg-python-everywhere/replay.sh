#!/bin/bash
exec python3 - "$@" <<'PY'
import os, sys

ROOT = "/root/q"
name = sys.argv[1] if len(sys.argv) > 1 else ""

# only a bare file name that really sits in error/
if not name or name != os.path.basename(name) or name in (".", ".."):
    sys.exit(f"replay: bad name {name!r}")
src = os.path.join(ROOT, "error", name)
dst = os.path.join(ROOT, "inbox", name)
if not os.path.isfile(src) or os.path.islink(src):
    sys.exit(f"replay: {name!r} is not in error/")
if os.path.exists(dst):
    sys.exit(f"replay: inbox/{name} already exists")
os.rename(src, dst)
print("replayed", name)
PY
