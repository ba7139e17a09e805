import json
import os
import sqlite3
from datetime import datetime

Q = "/root/q"
INBOX = Q + "/inbox"
PROCESSING = Q + "/processing"
DONE = Q + "/done"
ERROR = Q + "/error"
DB = Q + "/ledger.db"

REQUIRED = ["msg_id", "order_no", "seq", "amount"]


def init_db(conn):
    conn.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        " msg_id TEXT PRIMARY KEY,"
        " order_no TEXT NOT NULL,"
        " seq INTEGER NOT NULL,"
        " amount INTEGER NOT NULL,"
        " processed_at TEXT NOT NULL)"
    )
    conn.commit()


def validate(path):
    """returns (msg, reason)"""
    with open(path, "r", encoding="utf-8", errors="strict") as f:
        text = f.read()
    try:
        msg = json.loads(text)
    except json.JSONDecodeError:
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    for field in REQUIRED:
        if field not in msg or msg[field] is None:
            return None, "missing-field"
    return msg, None


def save(conn, msg):
    cur = conn.execute(
        "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT(msg_id) DO NOTHING",
        (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
         datetime.now().strftime("%Y-%m-%d %H:%M:%S")),
    )
    conn.commit()
    return cur.rowcount == 1


def main():
    conn = sqlite3.connect(DB, timeout=30)
    init_db(conn)
    done = error = dup = 0
    for name in sorted(os.listdir(INBOX)):
        # step 3: move to processing first, then read
        work = os.path.join(PROCESSING, name)
        os.rename(os.path.join(INBOX, name), work)
        try:
            msg, reason = validate(work)
        except UnicodeDecodeError:
            msg, reason = None, "parse"
        if reason is not None:
            os.rename(work, os.path.join(ERROR, name))
            print("error:", name, reason)
            error += 1
            continue
        if not save(conn, msg):
            print("duplicate:", msg["msg_id"])
            dup += 1
        os.rename(work, os.path.join(DONE, name))
        done += 1
    conn.close()
    print(f"done={done} error={error} duplicates={dup}")


if __name__ == "__main__":
    main()
