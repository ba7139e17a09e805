#!/usr/bin/env python3
"""qtool.py -- small queue tools on top of qlib.

    qtool.py lag QUEUE_DIR THRESHOLD
    qtool.py replay FILENAME
    qtool.py report            (writes error.csv and dup.txt from the journal)
"""
import os
import sys

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)), "/root/q"]
import qlib  # noqa: E402


def lag(qdir, threshold):
    try:
        limit = int(threshold)
    except ValueError:
        print("lag: THRESHOLD must be an integer", file=sys.stderr)
        return 2
    if not os.path.isdir(qdir):
        print(f"lag: {qdir}: no such directory", file=sys.stderr)
        return 2
    n = {s: qlib.count_files(qlib.path(qdir, s)) for s in ("inbox", "processing", "error")}
    print(f"inbox={n['inbox']} processing={n['processing']} error={n['error']}")
    return 1 if n["inbox"] > limit else 0


def replay(name):
    qdir = qlib.QUEUE_DIR
    if not name or name in (".", "..") or os.sep in name or (os.altsep and os.altsep in name):
        print(f"replay: {name!r} is not a plain file name", file=sys.stderr)
        return 2
    src = qlib.path(qdir, "error", name)
    dst = qlib.path(qdir, "inbox", name)
    if not os.path.isfile(src) or os.path.islink(src):
        print(f"replay: {name} is not in {qlib.path(qdir, 'error')}", file=sys.stderr)
        return 1
    if os.path.lexists(dst):
        print(f"replay: {name} already in inbox", file=sys.stderr)
        return 1
    os.rename(src, dst)
    qlib.journal(qdir, file=name, event="replay")
    return 0


def report():
    qdir = qlib.QUEUE_DIR
    last_error = {}
    dups = set()
    for ev in qlib.read_journal(qdir):
        if ev["event"] == "error":
            last_error[ev["file"]] = ev["reason"]
        elif ev["event"] == "duplicate":
            dups.add(ev["msg_id"])
    in_error = sorted(os.listdir(qlib.path(qdir, "error")))
    with open(qlib.path(qdir, "error.csv"), "w", encoding="utf-8") as fh:
        fh.write("file,reason\n")
        for f in in_error:
            fh.write(f"{f},{last_error.get(f, 'parse')}\n")
    with open(qlib.path(qdir, "dup.txt"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(sorted(dups)))          # no newline after the last id
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "lag":
        return lag(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "replay":
        return replay(argv[2])
    if len(argv) == 2 and argv[1] == "report":
        return report()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
