#!/usr/bin/env python3
"""consume.py - land queue messages into ledger.db (processed), one file at a time."""
import json
import os
import sqlite3
from datetime import datetime

BASE = "/root/q"
REQUIRED = ("msg_id", "order_no", "seq", "amount")

SCHEMA = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT    PRIMARY KEY,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       INTEGER NOT NULL CHECK (amount > 0),      -- data-quality gate
    currency     TEXT,
    created_at   TEXT,
    processed_at TEXT    NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS receipt (            -- every delivery, for auditing
    file        TEXT NOT NULL,
    msg_id      TEXT,
    outcome     TEXT NOT NULL CHECK (outcome IN ('stored', 'duplicate', 'parse', 'missing-field')),
    received_at TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE VIEW IF NOT EXISTS v_duplicate_ids AS
    SELECT DISTINCT msg_id FROM receipt WHERE outcome = 'duplicate';
CREATE VIEW IF NOT EXISTS v_errors AS
    SELECT file, outcome AS reason FROM receipt WHERE outcome IN ('parse', 'missing-field');
"""


def path(*p):
    return os.path.join(BASE, *p)


def classify(raw):
    try:
        msg = json.loads(raw)
    except ValueError:
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    if any(msg.get(k) is None for k in REQUIRED):
        return None, "missing-field"
    return msg, None


def main():
    for d in ("inbox", "processing", "done", "error"):
        os.makedirs(path(d), exist_ok=True)
    db = sqlite3.connect(path("ledger.db"), timeout=30)
    db.executescript(SCHEMA)
    while True:
        todo = sorted(f for f in os.listdir(path("inbox")) if os.path.isfile(path("inbox", f)))
        if not todo:
            break
        for f in todo:
            try:
                os.rename(path("inbox", f), path("processing", f))
            except FileNotFoundError:
                continue
            with open(path("processing", f), "rb") as fh:
                msg, reason = classify(fh.read())
            with db:
                if reason:
                    db.execute("INSERT INTO receipt (file, outcome) VALUES (?, ?)", (f, reason))
                else:
                    cur = db.execute(
                        "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, currency, created_at) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
                         msg.get("currency"), msg.get("created_at")))
                    db.execute("INSERT INTO receipt (file, msg_id, outcome) VALUES (?, ?, ?)",
                               (f, msg["msg_id"], "stored" if cur.rowcount else "duplicate"))
            os.rename(path("processing", f), path("error" if reason else "done", f))
    db.close()
    print(datetime.now().isoformat(timespec="seconds"), "consume finished")


if __name__ == "__main__":
    main()
