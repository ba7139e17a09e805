#!/usr/bin/env python3
"""consume.py - thread-pool consumer for the directory queue.

Each thread claims files by renaming them inbox/ -> processing/ (the rename
is atomic, only one thread or process wins), has its own sqlite connection,
and relies on the PRIMARY KEY of processed.msg_id to drop redeliveries.
"""
import json
import os
import sqlite3
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

Q = "/root/q"
INBOX = f"{Q}/inbox"
PROCESSING = f"{Q}/processing"
DONE = f"{Q}/done"
ERROR = f"{Q}/error"
DB = f"{Q}/ledger.db"
REQUIRED = ("msg_id", "order_no", "seq", "amount")
THREADS = 8

_local = threading.local()
_lock = threading.Lock()
duplicates = []
errors = []


def conn():
    if not hasattr(_local, "db"):
        _local.db = sqlite3.connect(DB, timeout=60, isolation_level=None)
    return _local.db


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, "parse"
    if not isinstance(data, dict):
        return None, "parse"
    for key in REQUIRED:
        if data.get(key) is None:
            return None, "missing-field"
    return data, None


def process(name):
    src = os.path.join(INBOX, name)
    work = os.path.join(PROCESSING, name)
    try:
        os.rename(src, work)
    except FileNotFoundError:
        return                       # someone else claimed it
    msg, reason = load(work)
    if reason:
        os.rename(work, os.path.join(ERROR, name))
        with _lock:
            errors.append((name, reason))
        return
    cur = conn().execute(
        "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?)",
        (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
         datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")))
    if cur.rowcount == 0:
        with _lock:
            duplicates.append(msg["msg_id"])
    os.rename(work, os.path.join(DONE, name))


def main():
    db = sqlite3.connect(DB, timeout=60)
    db.execute("""CREATE TABLE IF NOT EXISTS processed (
                      msg_id TEXT PRIMARY KEY,
                      order_no TEXT NOT NULL,
                      seq INTEGER NOT NULL,
                      amount REAL NOT NULL,
                      processed_at TEXT NOT NULL)""")
    db.commit()
    db.close()
    names = sorted(n for n in os.listdir(INBOX) if os.path.isfile(os.path.join(INBOX, n)))
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for f in [pool.submit(process, n) for n in names]:
            f.result()               # re-raise anything a thread hit
    for name, reason in sorted(errors):
        print(f"error\t{name}\t{reason}")
    for msg_id in sorted(set(duplicates)):
        print(f"dup\t{msg_id}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
