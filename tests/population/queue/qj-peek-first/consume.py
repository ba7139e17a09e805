#!/usr/bin/env python3
# consume.py -- defensive queue consumer
#  * never crashes half-way: anything unexpected for one file sends that file to error/
#  * DB constraint (PRIMARY KEY) does the de-duplication, not an if
#  * processing/ is empty at the end, whatever happens
import json
import os
import sqlite3
import sys
import traceback
from datetime import datetime, timezone

Q = "/root/q"
INBOX = os.path.join(Q, "inbox")
PROCESSING = os.path.join(Q, "processing")
DONE = os.path.join(Q, "done")
ERROR = os.path.join(Q, "error")
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def connect():
    db = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=60)
    db.execute("PRAGMA busy_timeout = 60000")
    db.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        " msg_id TEXT PRIMARY KEY,"
        " order_no TEXT NOT NULL,"
        " seq INTEGER NOT NULL,"
        " amount NUMERIC NOT NULL,"
        " processed_at TEXT NOT NULL CHECK (processed_at <> ''))"
    )
    db.commit()
    return db


def peek(path):
    """Read the whole file before claiming it: if we cannot even open/read it (permissions,
    vanished, a directory) we do not want to own it."""
    with open(path, "rb") as fh:
        return fh.read()


def classify(raw):
    try:
        msg = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    for field in REQUIRED:
        if field not in msg or msg[field] is None:
            return None, "missing-field"
    return msg, None


def plain(v):
    return v if isinstance(v, (str, int, float)) else json.dumps(v, ensure_ascii=False)


def finish(work, target_dir, name):
    os.replace(work, os.path.join(target_dir, name))
    return target_dir


def main():
    db = connect()
    stats = {"done": 0, "error": 0, "dup": 0}
    for name in sorted(os.listdir(INBOX)):
        src = os.path.join(INBOX, name)
        work = os.path.join(PROCESSING, name)
        try:
            raw = peek(src)
        except FileNotFoundError:
            continue                       # another consumer got it first
        except OSError:
            raw = None                     # unreadable: still claim it and send it to error
        try:
            os.rename(src, work)           # claim
        except FileNotFoundError:
            continue                       # another consumer claimed it between peek and rename
        try:
            msg, reason = classify(raw) if raw is not None else (None, "parse")
            if reason:
                finish(work, ERROR, name)
                stats["error"] += 1
                print(f"ERROR,{name},{reason}")
                continue
            with db:
                cur = db.execute(
                    "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (plain(msg["msg_id"]), plain(msg["order_no"]), plain(msg["seq"]),
                     plain(msg["amount"]), datetime.now(timezone.utc).isoformat()),
                )
            if cur.rowcount == 0:
                stats["dup"] += 1
                print(f"DUP,{name},{msg['msg_id']}")
            finish(work, DONE, name)
            stats["done"] += 1
        except Exception:
            traceback.print_exc()
            if os.path.exists(work):       # never leave anything behind in processing/
                finish(work, ERROR, name)
                print(f"ERROR,{name},parse")
    print(f"# done={stats['done']} error={stats['error']} dup={stats['dup']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
