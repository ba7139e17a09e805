import errno
import json
import os
import shutil
import sqlite3
import sys
from datetime import datetime, timezone

ROOT = "/root/q"
INBOX, PROCESSING, DONE, ERROR = (os.path.join(ROOT, d) for d in ("inbox", "processing", "done", "error"))
REQUIRED = ["msg_id", "order_no", "seq", "amount"]


def open_ledger():
    con = sqlite3.connect(os.path.join(ROOT, "ledger.db"), timeout=30)
    con.execute("""
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       VARCHAR(64) PRIMARY KEY,
            order_no     VARCHAR(32),
            seq          INT,
            amount       DECIMAL(14, 2),
            processed_at TIMESTAMP
        )""")
    con.commit()
    return con


def move(src, dst_dir):
    """shutil.move; returns False when src has vanished (another consumer took it)."""
    try:
        shutil.move(src, os.path.join(dst_dir, os.path.basename(src)))
    except OSError as e:
        if e.errno == errno.ENOENT:
            return False
        raise
    return True


def read_message(path):
    try:
        with open(path, encoding="utf-8") as f:
            msg = json.load(f)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    missing = [k for k in REQUIRED if msg.get(k) is None]
    if missing:
        return None, "missing-field"
    return msg, None


def insert(con, msg):
    """True if inserted, False if msg_id was already in the ledger (PRIMARY KEY says no)."""
    try:
        con.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?)",
            (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
             datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")))
        con.commit()
        return True
    except sqlite3.IntegrityError:
        con.rollback()
        return False


def consume_one(con, name):
    if not move(os.path.join(INBOX, name), PROCESSING):
        return None
    work = os.path.join(PROCESSING, name)
    msg, reason = read_message(work)
    if reason:
        move(work, ERROR)
        return "error:" + reason
    fresh = insert(con, msg)
    move(work, DONE)
    return "done" if fresh else "done(dup)"


def main():
    con = open_ledger()
    results = {}
    while True:
        names = sorted(n for n in os.listdir(INBOX) if os.path.isfile(os.path.join(INBOX, n)))
        handled = [n for n in names if consume_one(con, n) is not None and not results.update({n: True})]
        if not handled:
            break
    con.close()
    print("processed %d file(s)" % len(results), file=sys.stderr)


main()
