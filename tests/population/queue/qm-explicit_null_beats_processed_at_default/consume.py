#!/usr/bin/env python3
"""Queue consumer for /root/q (inbox -> processing -> done | error)."""
import json
import os
import sqlite3

ROOT = "/root/q"
INBOX, PROCESSING, DONE, ERROR = (os.path.join(ROOT, d) for d in ("inbox", "processing", "done", "error"))
DB = os.path.join(ROOT, "ledger.db")

REQUIRED = ["msg_id", "order_no", "seq", "amount"]

# one place for the table layout: (name, declaration)
COLUMNS = [
    ("msg_id", "TEXT PRIMARY KEY"),
    ("order_no", "TEXT NOT NULL"),
    ("seq", "INTEGER NOT NULL"),
    ("amount", "NUMERIC NOT NULL"),
    ("processed_at", "TEXT DEFAULT CURRENT_TIMESTAMP"),  # filled in by sqlite
]
NAMES = [name for name, _ in COLUMNS]
CREATE_SQL = "CREATE TABLE IF NOT EXISTS processed (%s)" % ", ".join("%s %s" % c for c in COLUMNS)
INSERT_SQL = "INSERT OR IGNORE INTO processed (%s) VALUES (%s)" % (
    ", ".join(NAMES), ", ".join(":" + n for n in NAMES))


def sql_value(v):
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False)
    return v


def read_message(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        msg = json.loads(raw)
    except ValueError:
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    if any(msg.get(field) is None for field in REQUIRED):
        return None, "missing-field"
    return msg, None


def main():
    db = sqlite3.connect(DB, timeout=30)
    db.execute(CREATE_SQL)
    db.commit()
    stats = {"done": 0, "duplicate": 0, "error": 0}
    for name in sorted(os.listdir(INBOX)):
        work = os.path.join(PROCESSING, name)
        try:
            os.rename(os.path.join(INBOX, name), work)
        except FileNotFoundError:
            continue  # claimed by another consumer
        msg, reason = read_message(work)
        if reason:
            os.rename(work, os.path.join(ERROR, name))
            stats["error"] += 1
            print("error", name, reason)
            continue
        row = {n: sql_value(msg.get(n)) for n in NAMES}
        cur = db.execute(INSERT_SQL, row)
        db.commit()
        os.rename(work, os.path.join(DONE, name))
        if cur.rowcount == 1:
            stats["done"] += 1
            print("done", name)
        else:
            stats["duplicate"] += 1
            print("duplicate", name, msg["msg_id"])
    db.close()
    print(stats)


if __name__ == "__main__":
    main()
