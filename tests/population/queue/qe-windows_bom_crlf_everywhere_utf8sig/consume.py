# consume.py - file queue consumer (lab queue, step 3)
# Written on Windows, hence os.replace (os.rename fails there when the target exists)
import json
import os
import sqlite3
from datetime import datetime

BASE = "/root/q"
INBOX = os.path.join(BASE, "inbox")
PROCESSING = os.path.join(BASE, "processing")
DONE = os.path.join(BASE, "done")
ERROR = os.path.join(BASE, "error")
DB_PATH = os.path.join(BASE, "ledger.db")

REQUIRED = ("msg_id", "order_no", "seq", "amount")


def open_db():
    conn = sqlite3.connect(DB_PATH, timeout=30)
    conn.execute("""
        CREATE TABLE IF NOT EXISTS processed (
            id           INTEGER PRIMARY KEY AUTOINCREMENT,
            msg_id       TEXT NOT NULL UNIQUE,
            order_no     TEXT,
            seq          INTEGER,
            amount       REAL,
            processed_at TEXT NOT NULL
        )
    """)
    conn.commit()
    return conn


def classify(path):
    """returns (reason, message); reason is None for a good message"""
    try:
        # utf-8-sig: my own test files had a BOM, so accept one
        with open(path, "r", encoding="utf-8-sig") as f:
            msg = json.load(f)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return "parse", None
    if not isinstance(msg, dict):
        return "parse", None
    for key in REQUIRED:
        if key not in msg or msg[key] is None:
            return "missing-field", None
    return None, msg


def main():
    conn = open_db()
    names = sorted(os.listdir(INBOX))
    for name in names:
        src = os.path.join(INBOX, name)
        if not os.path.isfile(src):
            continue
        work = os.path.join(PROCESSING, name)
        try:
            os.replace(src, work)
        except FileNotFoundError:
            # somebody else already took this one
            continue

        reason, msg = classify(work)
        if reason is not None:
            print("ERROR  %s (%s)" % (name, reason))
            os.replace(work, os.path.join(ERROR, name))
            continue

        now = datetime.now().isoformat(sep=" ", timespec="seconds")
        cur = conn.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], now),
        )
        conn.commit()
        if cur.rowcount == 0:
            print("DUP    %s (%s)" % (name, msg["msg_id"]))
        else:
            print("OK     %s" % name)
        os.replace(work, os.path.join(DONE, name))

    conn.close()


if __name__ == "__main__":
    main()
