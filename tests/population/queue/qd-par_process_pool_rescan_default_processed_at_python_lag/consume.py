#!/usr/bin/env python3
"""consume.py -- parallel file-queue consumer.

Several worker processes scan inbox/ in their own random order and race to
claim files by os.rename() into processing/ (only one rename can win).  The
UNIQUE msg_id in `processed` is what keeps a redelivered message from being
booked twice, whichever worker (or whichever consume.py) sees it.

stdout: a JSON summary of the run (done / duplicates / errors).
"""
import json
import multiprocessing as mp
import os
import random
import sqlite3
import sys

Q = "/root/q"
INBOX, PROC, DONE, ERR = (os.path.join(Q, d) for d in ("inbox", "processing", "done", "error"))
DB = os.path.join(Q, "ledger.db")
REQUIRED = ("msg_id", "order_no", "seq", "amount")
WORKERS = max(1, min(4, os.cpu_count() or 1))

DDL = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT    NOT NULL UNIQUE,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    processed_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    worker_pid   INTEGER
)
"""


def connect():
    return sqlite3.connect(DB, timeout=120, isolation_level=None)


def verdict(path):
    """None if the message is good, else 'parse' / 'missing-field'."""
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


def worker(_):
    db = connect()
    pid = os.getpid()
    rnd = random.Random(pid)
    res = {"done": [], "duplicates": [], "errors": []}
    while True:
        names = os.listdir(INBOX)
        rnd.shuffle(names)
        claimed = 0
        for name in names:
            src = os.path.join(INBOX, name)
            if not os.path.isfile(src):
                continue
            mine = os.path.join(PROC, name)
            try:
                os.rename(src, mine)
            except FileNotFoundError:
                continue          # lost the race, fine
            claimed += 1
            msg, reason = verdict(mine)
            if reason:
                os.rename(mine, os.path.join(ERR, name))
                res["errors"].append({"file": name, "reason": reason})
                continue
            cur = db.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, worker_pid) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (msg_id) DO NOTHING",
                (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], pid))
            if cur.rowcount == 0:
                res["duplicates"].append(msg["msg_id"])
            os.rename(mine, os.path.join(DONE, name))
            res["done"].append(name)
        if claimed == 0:      # nothing left that I could take
            break
    db.close()
    return res


def main():
    db = connect()
    db.execute(DDL)
    db.close()                 # no open connection across fork
    with mp.Pool(WORKERS) as pool:
        parts = pool.map(worker, range(WORKERS))
    summary = {
        "workers": WORKERS,
        "done": sorted(n for p in parts for n in p["done"]),
        "duplicates": sorted({d for p in parts for d in p["duplicates"]}),
        "errors": sorted((e for p in parts for e in p["errors"]), key=lambda e: e["file"]),
    }
    json.dump(summary, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
