#!/bin/bash
exec python3 - "$@" <<'PY'
import os, sys

qdir, threshold = sys.argv[1], int(sys.argv[2])

def count(sub):
    d = os.path.join(qdir, sub)
    return sum(1 for e in os.scandir(d) if e.is_file(follow_symlinks=False))

n = {sub: count(sub) for sub in ("inbox", "processing", "error")}
print(f"inbox={n['inbox']} processing={n['processing']} error={n['error']}")
sys.exit(1 if n["inbox"] > threshold else 0)
PY
