#!/usr/bin/env python3
# consume.py -- FIFO (oldest mtime first) consumer for the directory queue
# - claim = rename inbox/F -> processing/F (atomic, one winner)
# - every DB write happens under an exclusive flock on ledger.db.lock, so concurrent
#   consumers never see "database is locked"; the UNIQUE(msg_id) constraint is what dedups
import fcntl
import json
import os
import sqlite3
import sys
from contextlib import contextmanager
from datetime import datetime

Q = "/root/q"
INBOX, PROC, DONE, ERR = (f"{Q}/{x}" for x in ("inbox", "processing", "done", "error"))
NEED = ("msg_id", "order_no", "seq", "amount")


@contextmanager
def db_lock():
    with open(f"{Q}/ledger.db.lock", "a") as lf:
        fcntl.flock(lf, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lf, fcntl.LOCK_UN)


def fifo(path):
    entries = []
    for e in os.scandir(path):
        try:
            if e.is_file():
                entries.append((e.stat().st_mtime_ns, e.name))
        except FileNotFoundError:
            pass
    return [n for _, n in sorted(entries)]


def parse(raw):
    try:
        m = json.loads(raw)
    except ValueError:
        return None, "parse"
    if not isinstance(m, dict):
        return None, "parse"
    return (m, None) if all(m.get(k) is not None for k in NEED) else (None, "missing-field")


def main():
    for p in (INBOX, PROC, DONE, ERR):
        os.makedirs(p, exist_ok=True)
    db = sqlite3.connect(f"{Q}/ledger.db", timeout=30, isolation_level=None)
    with db_lock():
        db.execute("CREATE TABLE IF NOT EXISTS processed ("
                   "msg_id TEXT, order_no TEXT, seq INTEGER, amount NUMERIC, processed_at TEXT, "
                   "UNIQUE (msg_id))")
    while True:
        names = fifo(INBOX)
        if not names:
            break
        for name in names:
            mine = f"{PROC}/{name}"
            try:
                os.rename(f"{INBOX}/{name}", mine)
            except FileNotFoundError:
                continue
            with open(mine, "rb") as f:
                m, bad = parse(f.read())
            if bad:
                os.rename(mine, f"{ERR}/{name}")
                print(f"{name} -> error ({bad})", flush=True)
                continue
            with db_lock():
                n = db.execute("INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
                               "VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
                               (m["msg_id"], m["order_no"], m["seq"], m["amount"],
                                datetime.now().strftime("%Y-%m-%d %H:%M:%S.%f"))).rowcount
            os.rename(mine, f"{DONE}/{name}")
            print(f"{name} -> done" + ("" if n else f" (duplicate {m['msg_id']})"), flush=True)
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
