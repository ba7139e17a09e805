#!/usr/bin/env python3
"""consume.py -- drain the inbox.  Rules and layout come from qlib.py (next to this file)."""
import os
import sys

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)), "/root/q"]
import qlib  # noqa: E402


def main():
    qdir = qlib.QUEUE_DIR
    con = qlib.connect(qdir)
    for name in sorted(os.listdir(qlib.path(qdir, "inbox"))):
        if not os.path.isfile(qlib.path(qdir, "inbox", name)):
            continue
        work = qlib.claim(qdir, name)
        if work is None:
            continue
        with open(work, "rb") as fh:
            msg, reason = qlib.classify(fh.read())
        if reason:
            qlib.settle(qdir, name, "error")
            qlib.journal(qdir, file=name, event="error", reason=reason)
            continue
        new = qlib.store(con, msg)
        qlib.settle(qdir, name, "done")
        qlib.journal(qdir, file=name, event="done" if new else "duplicate", msg_id=msg["msg_id"])
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
