#!/usr/bin/env python3
# consume.py
#   inbox --(parse ok)--> processing --> done / error(missing-field)
#   inbox --(parse fail)--> error          (poison never enters processing)
import json
import os
import sqlite3
from datetime import datetime

Q = "/root/q"
INBOX, PROC, DONE, ERR = (f"{Q}/{d}" for d in ("inbox", "processing", "done", "error"))
REQUIRED = ("msg_id", "order_no", "seq", "amount")

con = sqlite3.connect(f"{Q}/ledger.db", timeout=30)
con.execute("""
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT PRIMARY KEY,
    order_no     TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    processed_at TEXT NOT NULL
)""")
con.commit()


def peek(path):
    """parsed object, or None when the file is not a JSON object"""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        obj = json.loads(raw.decode("utf-8"))
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def move(src, dst):
    try:
        os.rename(src, dst)
        return True
    except FileNotFoundError:  # another consumer got there first
        return False


stats = {"done": 0, "dup": 0, "parse": 0, "missing-field": 0}
while True:
    names = sorted(os.listdir(INBOX))
    moved_any = False
    for name in names:
        try:
            msg = peek(f"{INBOX}/{name}")
        except (FileNotFoundError, IsADirectoryError):
            continue
        if msg is None:
            if move(f"{INBOX}/{name}", f"{ERR}/{name}"):
                moved_any = True
                stats["parse"] += 1
                print(f"{name}: parse")
            continue
        if not move(f"{INBOX}/{name}", f"{PROC}/{name}"):
            continue
        moved_any = True
        if any(msg.get(k) is None for k in REQUIRED):
            os.rename(f"{PROC}/{name}", f"{ERR}/{name}")
            stats["missing-field"] += 1
            print(f"{name}: missing-field")
            continue
        cur = con.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?)",
            (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], datetime.now().isoformat()))
        con.commit()
        if cur.rowcount == 0:
            stats["dup"] += 1
            print(f"{name}: duplicate {msg['msg_id']}")
        os.rename(f"{PROC}/{name}", f"{DONE}/{name}")
        stats["done"] += 1
    if not moved_any:
        break
con.close()
print(stats)
