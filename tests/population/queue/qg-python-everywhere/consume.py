import json
import os
import sqlite3
import sys
import time
from pathlib import Path

ROOT = Path("/root/q")
INBOX = ROOT / "inbox"
PROCESSING = ROOT / "processing"
DONE = ROOT / "done"
ERROR = ROOT / "error"
REQUIRED = ["msg_id", "order_no", "seq", "amount"]


def check(path):
    """return (reason, message); reason is None when the message is fine"""
    try:
        msg = json.loads(path.read_bytes())
    except ValueError:          # bad JSON or bad UTF-8
        return "parse", None
    if not isinstance(msg, dict):
        return "parse", None
    for key in REQUIRED:
        if msg.get(key) is None:
            return "missing-field", None
    return None, msg


def main():
    con = sqlite3.connect(ROOT / "ledger.db", timeout=60)
    con.isolation_level = None   # autocommit, every INSERT is its own transaction
    con.execute("""CREATE TABLE IF NOT EXISTS processed (
                       msg_id TEXT PRIMARY KEY,
                       order_no TEXT,
                       seq INTEGER,
                       amount INTEGER,
                       processed_at INTEGER)""")
    dups, errors = [], []
    while True:
        todo = sorted(INBOX.iterdir())
        if not todo:
            break
        for src in todo:
            work = PROCESSING / src.name
            try:
                os.rename(src, work)
            except FileNotFoundError:
                continue
            reason, msg = check(work)
            if reason:
                errors.append((src.name, reason))
                os.rename(work, ERROR / src.name)
                continue
            new = con.execute(
                "INSERT INTO processed VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(msg_id) DO NOTHING RETURNING msg_id",
                (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], int(time.time())),
            ).fetchall()
            if not new:
                dups.append(msg["msg_id"])
            os.rename(work, DONE / src.name)
    con.close()
    print("duplicates:", *sorted(dups))
    for name, reason in errors:
        print("error:", name, reason)


if __name__ == "__main__":
    main()
