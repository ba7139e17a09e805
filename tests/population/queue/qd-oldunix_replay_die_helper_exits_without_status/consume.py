#!/usr/bin/env python3
# consume.py -- move inbox/* -> processing/ -> done/ or error/
import json, os, sqlite3, sys
from datetime import datetime

Q = "/root/q"
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def move(name, a, b):
    os.rename(os.path.join(Q, a, name), os.path.join(Q, b, name))


def load(path):
    """dict from the file, or None if it is not a JSON object"""
    try:
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
    except ValueError:
        return None
    return m if isinstance(m, dict) else None


def main():
    con = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=60)
    con.execute("""CREATE TABLE IF NOT EXISTS processed (
                     msg_id       TEXT PRIMARY KEY,
                     order_no     TEXT NOT NULL,
                     seq          INTEGER NOT NULL,
                     amount       NUMERIC NOT NULL,
                     processed_at TEXT NOT NULL)""")
    con.commit()
    for name in sorted(os.listdir(os.path.join(Q, "inbox"))):
        if not os.path.isfile(os.path.join(Q, "inbox", name)):
            continue
        try:
            move(name, "inbox", "processing")
        except FileNotFoundError:      # taken by another consumer
            continue
        m = load(os.path.join(Q, "processing", name))
        if m is None or any(m.get(k) is None for k in REQUIRED):
            move(name, "processing", "error")
            continue
        with con:
            con.execute("INSERT OR IGNORE INTO processed VALUES (?, ?, ?, ?, ?)",
                        (m["msg_id"], m["order_no"], m["seq"], m["amount"],
                         datetime.now().isoformat(sep=" ", timespec="seconds")))
        move(name, "processing", "done")
    con.close()


if __name__ == "__main__":
    main()
    sys.exit(0)
