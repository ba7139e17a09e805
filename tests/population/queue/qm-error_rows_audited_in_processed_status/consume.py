#!/usr/bin/env python3
# consume.py
# Ledger principle: every message we receive leaves a trace in the ledger.
#   status = 'done'  -> valid message, booked
#   status = 'error' -> rejected (missing field); kept for the audit trail
# Parse failures have no msg_id, so they can only be traced by the file in error/.
import json
import os
import sqlite3
import sys
from datetime import datetime, timezone

Q = "/root/q"
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def scalar(v):
    return json.dumps(v) if isinstance(v, (dict, list)) else v


def main():
    con = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=30)
    con.execute("""
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       TEXT NOT NULL UNIQUE,
            order_no     TEXT,
            seq          INTEGER,
            amount       NUMERIC,
            processed_at TEXT NOT NULL,
            status       TEXT NOT NULL DEFAULT 'done',
            note         TEXT
        )""")
    con.commit()

    booked = dup = rejected = 0
    for name in sorted(os.listdir(os.path.join(Q, "inbox"))):
        work = os.path.join(Q, "processing", name)
        try:
            os.rename(os.path.join(Q, "inbox", name), work)
        except FileNotFoundError:
            continue
        with open(work, "rb") as fh:
            raw = fh.read()
        try:
            msg = json.loads(raw)
        except ValueError:
            msg = None
        if not isinstance(msg, dict):
            os.rename(work, os.path.join(Q, "error", name))
            rejected += 1
            print("REJECT", name, "parse")
            continue

        missing = [k for k in REQUIRED if msg.get(k) is None]
        if missing:
            if msg.get("msg_id") is not None:
                con.execute(
                    "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at, status, note)"
                    " VALUES (?, ?, ?, ?, ?, 'error', ?)",
                    (scalar(msg.get("msg_id")), scalar(msg.get("order_no")), scalar(msg.get("seq")),
                     scalar(msg.get("amount")), now(), "missing " + ",".join(missing)),
                )
                con.commit()
            os.rename(work, os.path.join(Q, "error", name))
            rejected += 1
            print("REJECT", name, "missing-field")
            continue

        cur = con.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at, status)"
            " VALUES (?, ?, ?, ?, ?, 'done')",
            (scalar(msg["msg_id"]), scalar(msg["order_no"]), scalar(msg["seq"]), scalar(msg["amount"]), now()),
        )
        con.commit()
        os.rename(work, os.path.join(Q, "done", name))
        if cur.rowcount == 1:
            booked += 1
            print("BOOK", name, msg["msg_id"])
        else:
            dup += 1
            print("DUPLICATE", name, msg["msg_id"])

    con.close()
    print(f"booked={booked} duplicate={dup} rejected={rejected}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
