#!/usr/bin/env python3
"""
consume.py - directory queue consumer
  inbox/ -> processing/ (claim by rename) -> done/ or error/
  ledger: /root/q/ledger.db, table processed, msg_id UNIQUE
usage: python3 /root/q/consume.py
"""
import json
import os
import sqlite3
import sys
from datetime import datetime

ROOT = "/root/q"
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def path(*parts):
    return os.path.join(ROOT, *parts)


def connect():
    conn = sqlite3.connect(path("ledger.db"), timeout=30)
    conn.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        " msg_id TEXT UNIQUE NOT NULL,"
        " order_no TEXT,"
        " seq INTEGER,"
        " amount NUMERIC,"
        " processed_at TEXT)"
    )
    conn.commit()
    return conn


def inspect(raw):
    try:
        msg = json.loads(raw)
    except ValueError:
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    for key in REQUIRED:
        if key not in msg or msg[key] is None:
            return None, "missing-field"
    return msg, None


def plain(v):
    return json.dumps(v) if isinstance(v, (dict, list)) else v


def main():
    conn = connect()
    for name in sorted(os.listdir(path("inbox"))):
        claimed = path("processing", name)
        try:
            os.rename(path("inbox", name), claimed)
        except FileNotFoundError:
            continue
        with open(claimed, "rb") as fh:
            msg, reason = inspect(fh.read())
        if reason:
            os.rename(claimed, path("error", name))
            print(f"{name}: error ({reason})")
            continue
        cur = conn.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
            (plain(msg["msg_id"]), plain(msg["order_no"]), plain(msg["seq"]), plain(msg["amount"]),
             datetime.now().isoformat(timespec="seconds")),
        )
        conn.commit()
        os.rename(claimed, path("done", name))
        if cur.rowcount:
            print(f"{name}: done")
        else:
            print(f"{name}: duplicate {msg['msg_id']} ignored")
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
