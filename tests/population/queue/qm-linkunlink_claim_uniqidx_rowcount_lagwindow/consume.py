#!/usr/bin/env python3
# consume.py - drain /root/q/inbox once.
#
# claim:  link(inbox/f, processing/f) then unlink(inbox/f).
#         link() fails with EEXIST if another consumer holds processing/f and
#         with ENOENT if it already unlinked inbox/f -> either way: not ours.
# dedup:  UNIQUE index on msg_id, INSERT OR IGNORE, rowcount tells us.
# stdout: one line per file: DONE <f> | DUP <msg_id> <f> | ERR <f> <reason>
import datetime
import json
import os
import sqlite3
import sys

Q = "/root/q"
INBOX = os.path.join(Q, "inbox")
PROC = os.path.join(Q, "processing")
DONE = os.path.join(Q, "done")
ERR = os.path.join(Q, "error")
DB = os.path.join(Q, "ledger.db")
REQUIRED = ("msg_id", "order_no", "seq", "amount")

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    msg_id       TEXT    NOT NULL,
    order_no     TEXT,
    seq          INTEGER,
    amount       NUMERIC,
    processed_at TEXT    NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS processed_msg_id_uq ON processed (msg_id);
"""


def claim(name):
    src = os.path.join(INBOX, name)
    dst = os.path.join(PROC, name)
    try:
        os.link(src, dst)
    except (FileExistsError, FileNotFoundError):
        return None
    os.unlink(src)
    return dst


def col(v):
    # sqlite3 only binds scalars
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False)
    return v


def check(raw):
    """-> (msg, None) or (None, reason)"""
    try:
        msg = json.loads(raw)          # bytes: utf-8/16/32 detected, bad bytes -> ValueError
    except ValueError:
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    for k in REQUIRED:
        if msg.get(k) is None:         # absent or null
            return None, "missing-field"
    return msg, None


def main():
    for d in (INBOX, PROC, DONE, ERR):
        os.makedirs(d, exist_ok=True)
    db = sqlite3.connect(DB, timeout=30)
    db.executescript(DDL)
    db.commit()

    for name in sorted(os.listdir(INBOX)):
        if not os.path.isfile(os.path.join(INBOX, name)):
            continue
        path = claim(name)
        if path is None:
            continue
        with open(path, "rb") as fh:
            raw = fh.read()
        msg, reason = check(raw)
        if reason:
            os.rename(path, os.path.join(ERR, name))
            print("ERR", name, reason)
            continue
        now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")
        cur = db.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (col(msg["msg_id"]), col(msg["order_no"]), col(msg["seq"]), col(msg["amount"]), now),
        )
        db.commit()
        os.rename(path, os.path.join(DONE, name))
        if cur.rowcount == 0:
            print("DUP", msg["msg_id"], name)
        else:
            print("DONE", name)
        sys.stdout.flush()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
