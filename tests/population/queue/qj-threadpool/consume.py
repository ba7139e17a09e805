#!/usr/bin/env python3
"""File-queue consumer for /root/q.

Claims each inbox file by renaming it into processing/ (atomic on one filesystem),
only then reads it. Several worker threads run at once -- the rename is the claim and the
PRIMARY KEY on msg_id is the de-duplication, so threads (or a second consume.py) are safe.

stdout: one line per file:  DONE <file> <msg_id> | DUP <file> <msg_id> | ERROR <file> <reason>
"""
import json
import os
import sqlite3
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

Q = os.environ.get("QUEUE_ROOT", "/root/q")
INBOX, PROC, DONE, ERR = (os.path.join(Q, d) for d in ("inbox", "processing", "done", "error"))
DB = os.path.join(Q, "ledger.db")
REQUIRED = ("msg_id", "order_no", "seq", "amount")
WORKERS = 4

_print_lock = threading.Lock()
_local = threading.local()


def say(*parts):
    with _print_lock:
        print(*parts, flush=True)


def conn():
    c = getattr(_local, "conn", None)
    if c is None:
        c = sqlite3.connect(DB, timeout=60, isolation_level=None)  # autocommit; one statement = one txn
        c.execute("PRAGMA busy_timeout = 60000")
        _local.conn = c
    return c


def init_db():
    c = sqlite3.connect(DB, timeout=60)
    with c:
        c.execute(
            """CREATE TABLE IF NOT EXISTS processed (
                   msg_id       TEXT    NOT NULL,
                   order_no     TEXT    NOT NULL,
                   seq          INTEGER NOT NULL,
                   amount       NUMERIC NOT NULL,
                   processed_at TEXT    NOT NULL,
                   worker       TEXT,
                   CONSTRAINT uq_processed_msg UNIQUE (msg_id)
               )"""
        )
    c.close()


def parse(raw):
    """-> (message, None) or (None, reason)"""
    try:
        msg = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    for f in REQUIRED:
        if msg.get(f) is None:          # absent or null -> missing; 0 / "" are present
            return None, "missing-field"
    return msg, None


def scalar(v):
    return v if isinstance(v, (str, int, float)) else json.dumps(v, ensure_ascii=False)


def handle(name):
    src = os.path.join(INBOX, name)
    work = os.path.join(PROC, name)
    try:
        os.rename(src, work)             # the claim
    except FileNotFoundError:
        return                           # another worker/consumer took it
    if not os.path.isfile(work):
        os.rename(work, os.path.join(ERR, name))
        say("ERROR", name, "parse")
        return
    with open(work, "rb") as fh:
        raw = fh.read()
    msg, reason = parse(raw)
    if reason:
        os.replace(work, os.path.join(ERR, name))
        say("ERROR", name, reason)
        return
    now = datetime.now(timezone.utc).isoformat(timespec="microseconds")
    cur = conn().execute(
        "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at, worker) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
        (scalar(msg["msg_id"]), scalar(msg["order_no"]), scalar(msg["seq"]), scalar(msg["amount"]),
         now, "%d/%s" % (os.getpid(), threading.current_thread().name)),
    )
    os.replace(work, os.path.join(DONE, name))
    say("DONE" if cur.rowcount == 1 else "DUP", name, msg["msg_id"])


def main():
    for d in (INBOX, PROC, DONE, ERR):
        os.makedirs(d, exist_ok=True)
    init_db()
    names = sorted(os.listdir(INBOX))
    with ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="w") as pool:
        for fut in [pool.submit(handle, n) for n in names]:
            fut.result()
    return 0


if __name__ == "__main__":
    sys.exit(main())
