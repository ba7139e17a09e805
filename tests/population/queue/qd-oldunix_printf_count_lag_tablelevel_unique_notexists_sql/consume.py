#!/usr/bin/env python3
# consume.py -- inbox -> processing -> done | error
# stdout: one line per message, "OK|DUP|ERR <what> <file>", for grep/awk.
import json
import os
import sqlite3
import sys
import time

Q = "/root/q"
INBOX = os.path.join(Q, "inbox")
PROC = os.path.join(Q, "processing")
DONE = os.path.join(Q, "done")
ERR = os.path.join(Q, "error")
REQ = ("msg_id", "order_no", "seq", "amount")

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    msg_id       TEXT    NOT NULL,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    currency     TEXT,
    src_file     TEXT,
    processed_at TEXT    NOT NULL,
    CONSTRAINT processed_msg_id_uq UNIQUE (msg_id)
)
"""


def out(*words):
    print(*words, flush=True)


def to_error(name, reason):
    os.rename(os.path.join(PROC, name), os.path.join(ERR, name))
    out("ERR", reason, name)


def handle(db, name):
    path = os.path.join(PROC, name)
    try:
        with open(path, "rb") as f:
            msg = json.loads(f.read().decode("utf-8"))
    except ValueError:  # JSONDecodeError, UnicodeDecodeError
        return to_error(name, "parse")
    if not isinstance(msg, dict):
        return to_error(name, "parse")
    for k in REQ:
        if msg.get(k) is None:
            return to_error(name, "missing-field")
    cur = db.execute(
        "INSERT INTO processed (msg_id, order_no, seq, amount, currency, src_file, processed_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
        (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
         msg.get("currency"), name, time.strftime("%Y-%m-%d %H:%M:%S")))
    os.rename(path, os.path.join(DONE, name))
    out("DUP" if cur.rowcount == 0 else "OK", msg["msg_id"], name)


def main():
    db = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=60, isolation_level=None)
    db.execute(DDL)
    for name in sorted(os.listdir(INBOX)):
        src = os.path.join(INBOX, name)
        if not os.path.isfile(src):
            continue
        try:
            os.rename(src, os.path.join(PROC, name))   # claim
        except FileNotFoundError:
            continue                                    # another consumer got it
        handle(db, name)
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
