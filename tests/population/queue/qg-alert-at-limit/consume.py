#!/usr/bin/env python3
# consume.py - file queue consumer for lab "queue"
import json
import os
import sqlite3
import sys
from datetime import datetime, timezone

Q = "/root/q"
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def open_db():
    con = sqlite3.connect(f"{Q}/ledger.db", timeout=30)
    con.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        " msg_id TEXT NOT NULL,"
        " order_no TEXT NOT NULL,"
        " seq INTEGER NOT NULL,"
        " amount NUMERIC NOT NULL,"
        " processed_at TEXT NOT NULL)"
    )
    # the constraint that makes reprocessing idempotent
    con.execute("CREATE UNIQUE INDEX IF NOT EXISTS ux_processed_msg_id ON processed (msg_id)")
    con.commit()
    return con


def classify(path):
    try:
        with open(path, "rb") as f:
            msg = json.loads(f.read().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return "parse", None
    if not isinstance(msg, dict):
        return "parse", None
    if any(msg.get(k) is None for k in REQUIRED):
        return "missing-field", None
    return "ok", msg


def main():
    con = open_db()
    while True:
        names = sorted(os.listdir(f"{Q}/inbox"))
        if not names:
            break
        for name in names:
            work = f"{Q}/processing/{name}"
            try:
                os.rename(f"{Q}/inbox/{name}", work)
            except FileNotFoundError:
                continue
            verdict, msg = classify(work)
            if verdict != "ok":
                os.rename(work, f"{Q}/error/{name}")
                print(f"ERROR {name} {verdict}")
                continue
            cur = con.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
                (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
                 datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")),
            )
            con.commit()
            if cur.rowcount == 0:
                print(f"DUP {msg['msg_id']} {name}")
            os.rename(work, f"{Q}/done/{name}")
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
