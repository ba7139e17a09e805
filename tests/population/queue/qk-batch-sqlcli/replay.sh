#!/usr/bin/env bash
# replay.sh FILENAME -- move /root/q/error/FILENAME back to /root/q/inbox/
exec python3 - "$@" <<'PY'
import os, sys
Q = "/root/q"
if len(sys.argv) != 2:
    sys.exit("usage: replay.sh FILENAME")
name = sys.argv[1]
if name in ("", ".", "..") or "/" in name or "\0" in name:
    sys.exit("replay.sh: bad file name %r" % name)
src = os.path.join(Q, "error", name)
dst = os.path.join(Q, "inbox", name)
if os.path.islink(src) or not os.path.isfile(src):
    sys.exit("replay.sh: %s is not in error/" % name)
if os.path.lexists(dst):
    sys.exit("replay.sh: inbox/%s exists already" % name)
os.rename(src, dst)
print("replayed", name)
PY
