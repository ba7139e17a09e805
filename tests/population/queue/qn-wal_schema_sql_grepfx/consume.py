"""consume.py -- move, read, check, record, finish.  One file at a time."""
import contextlib
import datetime
import json
import os
import sqlite3

BASE = "/root/q"
DB_PATH = BASE + "/ledger.db"
NEEDED = ("msg_id", "order_no", "seq", "amount")

# same DDL as schema.sql (kept here too so a fresh queue works without it)
DDL = """CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT    NOT NULL,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       INTEGER NOT NULL,
    processed_at TEXT    NOT NULL,
    PRIMARY KEY (msg_id)
)"""


def qpath(box, name):
    return os.path.join(BASE, box, name)


def load(path):
    """-> (message, None) or (None, reason)"""
    with open(path, "rb") as fh:
        data = fh.read()
    try:
        obj = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, "parse"
    if not isinstance(obj, dict):
        return None, "parse"
    if [k for k in NEEDED if obj.get(k) is None]:
        return None, "missing-field"
    return obj, None


def store(con, msg):
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")
    with con:  # commits (or rolls back) this one insert
        cur = con.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], now))
    return cur.rowcount > 0


def run():
    with contextlib.closing(sqlite3.connect(DB_PATH, timeout=30)) as con:
        with con:
            con.execute(DDL)
        stats = {"done": 0, "error": 0, "duplicate": 0}
        while True:
            batch = sorted(os.listdir(os.path.join(BASE, "inbox")))
            claimed = 0
            for name in batch:
                work = qpath("processing", name)
                try:
                    os.rename(qpath("inbox", name), work)
                except OSError:
                    continue  # gone already (another consumer) -- not mine
                claimed += 1
                msg, why = load(work)
                if why:
                    os.rename(work, qpath("error", name))
                    stats["error"] += 1
                    continue
                if not store(con, msg):
                    stats["duplicate"] += 1
                os.rename(work, qpath("done", name))
                stats["done"] += 1
            if not claimed:
                break
    print(" ".join(f"{k}={v}" for k, v in stats.items()))


if __name__ == "__main__":
    run()
