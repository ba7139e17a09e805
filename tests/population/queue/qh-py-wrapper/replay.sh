#!/usr/bin/env bash
# replay.sh FILENAME -- move /root/q/error/FILENAME back into /root/q/inbox/
exec python3 - "$@" <<'PY'
"""Replay one file from error/ to inbox/.

Exit 0 when moved. Exit 1 when FILENAME is not a file in error/ (or inbox/ already has
one by that name); exit 2 when the argument is not a bare file name. The queue is left
untouched whenever the exit status is not 0.
"""
import os
import sys

QUEUE = "/root/q"


def main(argv: list) -> int:
    if len(argv) != 1:
        print("usage: replay.sh FILENAME", file=sys.stderr)
        return 2
    name = argv[0]
    if name in ("", ".", "..") or os.path.basename(name) != name:
        print(f"replay.sh: not a bare file name: {name!r}", file=sys.stderr)
        return 2
    src = os.path.join(QUEUE, "error", name)
    dst = os.path.join(QUEUE, "inbox", name)
    if os.path.islink(src) or not os.path.isfile(src):
        print(f"replay.sh: no such file in error/: {name!r}", file=sys.stderr)
        return 1
    if os.path.lexists(dst):
        print(f"replay.sh: inbox/{name} already exists; not overwriting", file=sys.stderr)
        return 1
    os.rename(src, dst)  # same filesystem: atomic, bytes untouched
    return 0


sys.exit(main(sys.argv[1:]))
PY
