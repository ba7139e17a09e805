#!/bin/bash
# replay.sh FILE -- put /root/q/error/FILE back into /root/q/inbox
exec python3 - "$@" <<'PY'
import os
import sys

Q = "/root/q"
name = sys.argv[1] if len(sys.argv) > 1 else ""
if not name or name in (".", "..") or os.path.basename(name) != name:
    sys.exit(f"replay: refusing {name!r}: give a file name from error/")
src = os.path.join(Q, "error", name)
dst = os.path.join(Q, "inbox", name)
if os.path.islink(src) or not os.path.isfile(src):
    sys.exit(f"replay: {name!r} is not in error/")
if os.path.exists(dst):
    sys.exit(f"replay: {name!r} is already in inbox/")
os.rename(src, dst)
print(f"replayed {name}")
PY
