#!/usr/bin/env python3
"""queue consumer - lab step 3"""
import json
import os
import sqlite3
from datetime import datetime

QUEUE = "/root/q"
INBOX = QUEUE + "/inbox"
PROCESSING = QUEUE + "/processing"
DONE = QUEUE + "/done"
ERROR = QUEUE + "/error"

REQUIRED = ["msg_id", "order_no", "seq", "amount"]


def setup_db():
    conn = sqlite3.connect(QUEUE + "/ledger.db", timeout=30.0)
    conn.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        "msg_id VARCHAR(64) UNIQUE NOT NULL, "
        "order_no VARCHAR(32), "
        "seq INT, "
        "amount DECIMAL(15,2), "
        "processed_at DATETIME DEFAULT CURRENT_TIMESTAMP)"
    )
    conn.commit()
    return conn


def check_message(path):
    """returns (msg, None) if ok, (None, reason) if bad"""
    try:
        with open(path, "r", encoding="utf-8") as f:
            msg = json.load(f)
    except Exception:
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    for field in REQUIRED:
        if field not in msg or msg[field] is None:
            return None, "missing-field"
    return msg, None


def main():
    conn = setup_db()
    for filename in sorted(os.listdir(INBOX)):
        src = os.path.join(INBOX, filename)
        dst = os.path.join(PROCESSING, filename)
        try:
            os.rename(src, dst)
        except FileNotFoundError:
            # someone else took it
            continue

        msg, reason = check_message(dst)
        if reason is not None:
            os.rename(dst, os.path.join(ERROR, filename))
            print("ERROR", filename, reason)
            continue

        cur = conn.cursor()
        cur.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
             datetime.now().strftime("%Y-%m-%d %H:%M:%S")),
        )
        conn.commit()
        if cur.rowcount == 0:
            print("DUPLICATE", filename, msg["msg_id"])
        else:
            print("OK", filename, msg["msg_id"])
        os.rename(dst, os.path.join(DONE, filename))
    conn.close()


if __name__ == "__main__":
    main()
