#!/usr/bin/env python3
"""File-queue consumer.

inbox -> processing (rename = claim) -> done | error
The ledger de-duplicates with a UNIQUE index on msg_id; the run prints one line per event
so the shell can build dup.txt / error.csv from the log.
"""
import json
import os
import sqlite3
import sys
import time

Q = "/root/q"
INBOX = os.path.join(Q, "inbox")
PROCESSING = os.path.join(Q, "processing")
DONE = os.path.join(Q, "done")
ERROR = os.path.join(Q, "error")
DB = os.path.join(Q, "ledger.db")
REQUIRED = ("msg_id", "order_no", "seq", "amount")

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    msg_id       TEXT    NOT NULL,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    processed_at INTEGER NOT NULL          -- unix epoch seconds
);
CREATE UNIQUE INDEX IF NOT EXISTS ux_processed_msg_id ON processed (msg_id);
"""

INSERT = """
INSERT INTO processed (msg_id, order_no, seq, amount, processed_at)
VALUES (?, ?, ?, ?, ?)
ON CONFLICT (msg_id) DO NOTHING
"""


def claim():
    """Yield names this process managed to rename into processing/, re-scanning until
    the inbox has nothing left for us."""
    while True:
        with os.scandir(INBOX) as it:
            names = sorted(e.name for e in it if e.is_file(follow_symlinks=False))
        if not names:
            return
        got = 0
        for name in names:
            try:
                os.rename(os.path.join(INBOX, name), os.path.join(PROCESSING, name))
            except FileNotFoundError:
                continue  # the other consumer was faster
            got += 1
            yield name
        if not got:
            return


def check(raw):
    """Return (reason, message); reason None when the message is good."""
    try:
        msg = json.loads(raw)  # bytes: json detects the UTF encoding itself
    except ValueError:  # JSONDecodeError and UnicodeDecodeError are both ValueErrors
        return "parse", None
    if not isinstance(msg, dict):
        return "parse", None
    for field in REQUIRED:
        if msg.get(field) is None:
            return "missing-field", None
    return None, msg


def main():
    con = sqlite3.connect(DB, timeout=60, isolation_level=None)  # autocommit
    con.executescript(DDL)
    n_done = n_err = n_dup = 0
    for name in claim():
        work = os.path.join(PROCESSING, name)
        with open(work, "rb") as fh:
            raw = fh.read()
        reason, msg = check(raw)
        if reason:
            os.rename(work, os.path.join(ERROR, name))
            print("error", name, reason)
            n_err += 1
            continue
        cur = con.execute(INSERT, (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
                                   int(time.time())))
        if cur.rowcount == 0:
            print("dup", msg["msg_id"], name)
            n_dup += 1
        os.rename(work, os.path.join(DONE, name))
        n_done += 1
    con.close()
    print(f"summary done={n_done} error={n_err} dup={n_dup}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
