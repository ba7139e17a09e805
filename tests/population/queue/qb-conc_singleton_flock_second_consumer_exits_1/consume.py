#!/usr/bin/env python3
"""consume.py - single-instance directory-queue consumer.

A lock file guarantees only one consumer runs at a time, which also makes the
crash recovery at start safe (whatever is still in processing/ belongs to a dead run).
"""
import fcntl
import json
import os
import sqlite3
import sys
import time

Q = "/root/q"
LOCK = os.path.join(Q, "consume.lock")
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def d(name, *rest):
    return os.path.join(Q, name, *rest)


def acquire_singleton():
    fh = open(LOCK, "w")
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("consume.py: another consumer is running (lock held), exiting", file=sys.stderr)
        sys.exit(1)
    fh.write(str(os.getpid()))
    fh.flush()
    return fh


def recover_processing():
    for name in os.listdir(d("processing")):
        if os.path.isfile(d("processing", name)) and not os.path.exists(d("inbox", name)):
            os.rename(d("processing", name), d("inbox", name))
            print(f"recovered {name} -> inbox", file=sys.stderr)


def validate(raw):
    try:
        m = json.loads(raw)
    except ValueError:
        return None, "parse"
    if not isinstance(m, dict):
        return None, "parse"
    if any(m.get(k) is None for k in REQUIRED):
        return None, "missing-field"
    return m, None


def main():
    for x in ("inbox", "processing", "done", "error"):
        os.makedirs(d(x), exist_ok=True)
    lock = acquire_singleton()
    recover_processing()
    db = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=30)
    db.execute("""CREATE TABLE IF NOT EXISTS processed (
                      msg_id TEXT PRIMARY KEY,
                      order_no TEXT NOT NULL,
                      seq INTEGER NOT NULL,
                      amount NUMERIC NOT NULL,
                      processed_at TEXT NOT NULL)""")
    db.commit()
    while True:
        names = sorted(n for n in os.listdir(d("inbox")) if os.path.isfile(d("inbox", n)))
        if not names:
            break
        for name in names:
            work = d("processing", name)
            try:
                os.rename(d("inbox", name), work)
            except FileNotFoundError:
                continue
            with open(work, "rb") as f:
                m, reason = validate(f.read())
            if reason:
                os.rename(work, d("error", name))
                print(f"ERROR\t{name}\t{reason}")
                continue
            with db:
                cur = db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?, ?, ?, ?)",
                                 (m["msg_id"], m["order_no"], m["seq"], m["amount"],
                                  time.strftime("%Y-%m-%d %H:%M:%S")))
            os.rename(work, d("done", name))
            print(("DUP" if cur.rowcount == 0 else "OK") + f"\t{name}\t{m['msg_id']}")
    db.close()
    lock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
