#!/usr/bin/env python3
# consume.py - directory queue consumer
#   inbox/ --rename--> processing/ --> done/  (stored or duplicate)
#                                  \-> error/ (parse / missing-field)
# One line per file on stdout:  <result> <msg_id or reason> <file>
import json
import os
import sqlite3
from datetime import datetime, timezone

Q = "/root/q"
INBOX = os.path.join(Q, "inbox")
PROC = os.path.join(Q, "processing")
DONE = os.path.join(Q, "done")
ERR = os.path.join(Q, "error")
DB = os.path.join(Q, "ledger.db")
REQUIRED = ("msg_id", "order_no", "seq", "amount")

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT PRIMARY KEY,
    order_no     TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    amount       INTEGER NOT NULL,
    processed_at TEXT NOT NULL
)
"""


def check(raw):
    """return (message, None) or (None, reason)"""
    try:
        msg = json.loads(raw)
    except ValueError:          # bad JSON, bad UTF-8
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"    # valid JSON but not a message object
    for key in REQUIRED:
        if msg.get(key) is None:    # absent or null; 0 / "" are real values
            return None, "missing-field"
    return msg, None


def col(value):
    # sqlite cannot bind lists/objects; keep them as JSON text
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return value


def claim(name):
    try:
        os.rename(os.path.join(INBOX, name), os.path.join(PROC, name))
        return True
    except FileNotFoundError:   # another consumer was faster
        return False


def main():
    db = sqlite3.connect(DB, timeout=30)
    db.execute(DDL)
    db.commit()
    while True:
        names = sorted(n for n in os.listdir(INBOX)
                       if os.path.isfile(os.path.join(INBOX, n)))
        took = 0
        for name in names:
            if not claim(name):
                continue
            took += 1
            path = os.path.join(PROC, name)
            with open(path, "rb") as f:
                raw = f.read()
            msg, reason = check(raw)
            if reason:
                os.rename(path, os.path.join(ERR, name))
                print("error", reason, name, flush=True)
                continue
            now = datetime.now(timezone.utc).isoformat(timespec="seconds")
            cur = db.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
                [col(msg[k]) for k in REQUIRED] + [now])
            db.commit()
            os.rename(path, os.path.join(DONE, name))
            result = "stored" if cur.rowcount == 1 else "duplicate"
            print(result, col(msg["msg_id"]), name, flush=True)
        if took == 0:
            break
    db.close()


if __name__ == "__main__":
    main()
