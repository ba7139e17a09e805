#!/usr/bin/env python3
"""consume.py -- batch consumer.

Files are claimed one at a time (rename inbox -> processing, then read).  Good messages are
buffered and written with executemany() inside one explicit BEGIN IMMEDIATE ... COMMIT per
batch; only after the COMMIT are the batch's files renamed to done/.  Bad messages go to
error/ right away.  The ledger is in WAL mode so readers never block the writer.

Tables
  processed(msg_id PRIMARY KEY, order_no, seq, amount, processed_at)   -- the ledger
  receipt(file, msg_id, received_at)  -- one row per good file handled, duplicates included
  rejected(file, reason, rejected_at) -- one row per file sent to error/
"""
import json
import os
import sqlite3
import sys
from datetime import datetime, timezone

Q = "/root/q"
BATCH = 50
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def utcnow():
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f+00:00")


def open_db():
    con = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=60, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("BEGIN IMMEDIATE")
    con.execute("""CREATE TABLE IF NOT EXISTS processed (
                       msg_id       TEXT PRIMARY KEY,
                       order_no     TEXT NOT NULL,
                       seq          INTEGER NOT NULL,
                       amount       INTEGER NOT NULL,
                       processed_at TEXT NOT NULL
                   ) WITHOUT ROWID""")
    con.execute("""CREATE TABLE IF NOT EXISTS receipt (
                       file TEXT NOT NULL, msg_id TEXT NOT NULL, received_at TEXT NOT NULL)""")
    con.execute("""CREATE TABLE IF NOT EXISTS rejected (
                       file TEXT NOT NULL, reason TEXT NOT NULL, rejected_at TEXT NOT NULL)""")
    con.execute("COMMIT")
    return con


def check(path):
    try:
        with open(path, "rb") as fh:
            msg = json.loads(fh.read())
    except ValueError:
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    if any(msg.get(k) is None for k in REQUIRED):
        return None, "missing-field"
    return msg, None


def flush(con, batch):
    """batch: list of (file, msg).  One transaction, then move the files to done/."""
    if not batch:
        return
    ts = utcnow()
    con.execute("BEGIN IMMEDIATE")
    try:
        con.executemany(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
            [(m["msg_id"], m["order_no"], m["seq"], m["amount"], ts) for _, m in batch])
        con.executemany("INSERT INTO receipt (file, msg_id, received_at) VALUES (?, ?, ?)",
                        [(f, m["msg_id"], ts) for f, m in batch])
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise
    for f, _ in batch:
        os.rename(os.path.join(Q, "processing", f), os.path.join(Q, "done", f))
    batch.clear()


def main():
    con = open_db()
    batch = []
    for name in sorted(os.listdir(os.path.join(Q, "inbox"))):
        src = os.path.join(Q, "inbox", name)
        work = os.path.join(Q, "processing", name)
        if not os.path.isfile(src):
            continue
        try:
            os.rename(src, work)
        except FileNotFoundError:
            continue                        # the other consumer was first
        msg, reason = check(work)
        if reason:
            with con:                       # sqlite3 context manager: commit / rollback
                con.execute("BEGIN")
                con.execute("INSERT INTO rejected VALUES (?, ?, ?)", (name, reason, utcnow()))
            os.rename(work, os.path.join(Q, "error", name))
            continue
        batch.append((name, msg))
        if len(batch) >= BATCH:
            flush(con, batch)
    flush(con, batch)
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
