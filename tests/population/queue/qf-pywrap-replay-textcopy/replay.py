#!/usr/bin/env python3
"""replay.py FILENAME -- put error/FILENAME back into inbox/ (called by replay.sh)."""
import os
import sys

QUEUE = "/root/q"
ERROR_DIR = os.path.join(QUEUE, "error")
INBOX_DIR = os.path.join(QUEUE, "inbox")


def fail(msg, code=1):
    print(f"replay: {msg}", file=sys.stderr)
    sys.exit(code)


def main(argv):
    if len(argv) != 1:
        fail("usage: replay.sh FILENAME", 2)
    name = argv[0]
    if not name or name in (".", "..") or os.sep in name or name != os.path.basename(name):
        fail(f"not a plain file name: {name!r}", 2)

    src = os.path.join(ERROR_DIR, name)
    dst = os.path.join(INBOX_DIR, name)
    if not os.path.isfile(src) or os.path.islink(src):
        fail(f"{name} is not in error/")
    if os.path.exists(dst):
        fail(f"inbox/{name} already exists")

    with open(src) as f:
        content = f.read()
    with open(dst, "w") as f:
        f.write(content)
    os.remove(src)
    print(f"replayed {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
