#!/usr/bin/env python3
"""consume.py -- file-queue consumer with idempotent recording.

    python3 consume.py [QUEUE_DIR]          (default /root/q)
    python3 consume.py --recover [QUEUE_DIR]

Per file, in name order:
  1. claim: os.rename(inbox/F, processing/F).  rename is atomic on one filesystem, so of two
     consumers exactly one wins; the loser gets FileNotFoundError and skips the file.
  2. read and validate the claimed copy (never the inbox copy).
  3. invalid -> error/F, and one row in error_log (file, reason).
     valid   -> INSERT ... ON CONFLICT(msg_id) DO NOTHING into processed (the PRIMARY KEY is
     the real de-duplication), a duplicate is noted in dup_log; commit; then done/F.
processing/ is empty at the end of a normal run.  A file left in processing/ by a crash is
NOT touched automatically (it could belong to a consumer that is still running); after making
sure no consumer runs, `--recover` moves such files back to inbox/.
"""
import json
import os
import sqlite3
import sys
from datetime import datetime, timezone

REQUIRED = ("msg_id", "order_no", "seq", "amount")

SCHEMA = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT    PRIMARY KEY,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    processed_at TEXT    NOT NULL CHECK (processed_at <> '')
);
CREATE TABLE IF NOT EXISTS dup_log (
    msg_id  TEXT NOT NULL,
    file    TEXT NOT NULL,
    seen_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS error_log (
    file      TEXT NOT NULL,
    reason    TEXT NOT NULL CHECK (reason IN ('parse', 'missing-field')),
    failed_at TEXT NOT NULL
);
"""


def now():
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def validate(raw):
    """(message, None) or (None, 'parse' | 'missing-field')."""
    try:
        text = raw.decode("utf-8-sig")
        msg = json.loads(text)
    except ValueError:                    # UnicodeDecodeError, JSONDecodeError
        return None, "parse"
    if not isinstance(msg, dict):         # valid JSON, but not a message object
        return None, "parse"
    # present-but-null counts as missing; 0, "" and false are present values
    if any(msg.get(k) is None for k in REQUIRED):
        return None, "missing-field"
    return msg, None


def connect(qdir):
    con = sqlite3.connect(os.path.join(qdir, "ledger.db"), timeout=60, isolation_level=None)
    con.execute("PRAGMA busy_timeout = 60000")
    con.execute("BEGIN IMMEDIATE")
    for stmt in filter(str.strip, SCHEMA.split(";")):
        con.execute(stmt)
    con.execute("COMMIT")
    return con


def record(con, msg, name):
    """Insert one valid message; return True when it was new."""
    con.execute("BEGIN IMMEDIATE")
    try:
        cur = con.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT(msg_id) DO NOTHING",
            (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], now()))
        new = cur.rowcount == 1
        if not new:
            con.execute("INSERT INTO dup_log (msg_id, file, seen_at) VALUES (?, ?, ?)",
                        (msg["msg_id"], name, now()))
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return new


def note_error(con, name, reason):
    con.execute("BEGIN IMMEDIATE")
    con.execute("INSERT INTO error_log (file, reason, failed_at) VALUES (?, ?, ?)",
                (name, reason, now()))
    con.execute("COMMIT")


def recover(qdir):
    moved = 0
    for name in sorted(os.listdir(os.path.join(qdir, "processing"))):
        src = os.path.join(qdir, "processing", name)
        dst = os.path.join(qdir, "inbox", name)
        if os.path.isfile(src) and not os.path.exists(dst):
            os.rename(src, dst)
            moved += 1
    print(f"recovered {moved} file(s) into inbox", file=sys.stderr)


def consume(qdir):
    inbox = os.path.join(qdir, "inbox")
    con = connect(qdir)
    counts = {"done": 0, "duplicate": 0, "error": 0}
    with os.scandir(inbox) as it:
        names = sorted(e.name for e in it
                       if e.is_file(follow_symlinks=False) and not e.name.startswith("."))
    for name in names:
        work = os.path.join(qdir, "processing", name)
        try:
            os.rename(os.path.join(inbox, name), work)
        except FileNotFoundError:
            continue                      # another consumer claimed it first
        with open(work, "rb") as fh:
            raw = fh.read()
        msg, reason = validate(raw)
        if reason is not None:
            note_error(con, name, reason)
            os.rename(work, os.path.join(qdir, "error", name))
            counts["error"] += 1
            continue
        new = record(con, msg, name)      # committed before the file leaves processing/
        os.rename(work, os.path.join(qdir, "done", name))
        counts["done" if new else "duplicate"] += 1
    con.close()
    print("consumed: " + ", ".join(f"{k}={v}" for k, v in counts.items()), file=sys.stderr)


def main(argv):
    args = argv[1:]
    do_recover = "--recover" in args
    args = [a for a in args if a != "--recover"]
    qdir = args[0] if args else "/root/q"
    for sub in ("inbox", "processing", "done", "error"):
        os.makedirs(os.path.join(qdir, sub), exist_ok=True)
    if do_recover:
        recover(qdir)
    consume(qdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
