#!/bin/sh
''':'
exec python3 "$0" "$@"
'''
# replay.sh FILENAME -- move /root/q/error/FILENAME back to /root/q/inbox/
import os
import sys
from pathlib import Path

HOME = Path(os.environ.get("QUEUE_HOME", "/root/q"))


def main(argv):
    if len(argv) != 2:
        print(f"usage: {argv[0]} FILENAME", file=sys.stderr)
        return 2
    name = argv[1]
    # only a bare name of a file that sits directly in error/
    if name in ("", ".", "..") or os.sep in name or "\0" in name:
        print(f"not a file name: {name!r}", file=sys.stderr)
        return 2
    source = HOME / "error" / name
    target = HOME / "inbox" / name
    if source.is_symlink() or not source.is_file():
        print(f"error/{name} does not exist", file=sys.stderr)
        return 1
    if target.exists():
        print(f"inbox/{name} already exists", file=sys.stderr)
        return 1
    os.rename(source, target)
    print(f"error/{name} -> inbox/{name}")
    return 0


sys.exit(main(sys.argv))
