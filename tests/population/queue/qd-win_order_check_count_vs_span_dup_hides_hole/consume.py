#!/usr/bin/env python3
# consume.py - directory queue consumer
#   inbox -> processing -> done | error, ledger in /root/q/ledger.db
#   also writes dup.txt and error.csv for this run
import csv
import json
import os
import sqlite3
from datetime import datetime

ROOT = "/root/q"
INBOX = os.path.join(ROOT, "inbox")
PROCESSING = os.path.join(ROOT, "processing")
DONE = os.path.join(ROOT, "done")
ERROR = os.path.join(ROOT, "error")
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def classify(path):
    """return (message, None) or (None, reason)"""
    try:
        with open(path, "r", encoding="utf-8") as f:
            msg = json.load(f)
    except (ValueError, UnicodeDecodeError):
        return None, "parse"
    if type(msg) is not dict:
        return None, "parse"
    for name in REQUIRED:
        if msg.get(name) is None:
            return None, "missing-field"
    return msg, None


def main():
    db = sqlite3.connect(os.path.join(ROOT, "ledger.db"), timeout=30)
    db.execute("""
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       TEXT PRIMARY KEY,
            order_no     TEXT NOT NULL,
            seq          INTEGER NOT NULL,
            amount       NUMERIC NOT NULL,
            processed_at TEXT NOT NULL
        )""")
    db.commit()

    duplicates = set()
    errors = []

    for name in sorted(os.listdir(INBOX)):
        src = os.path.join(INBOX, name)
        if not os.path.isfile(src):
            continue
        work = os.path.join(PROCESSING, name)
        try:
            os.rename(src, work)
        except FileNotFoundError:
            continue

        msg, reason = classify(work)
        if reason:
            os.rename(work, os.path.join(ERROR, name))
            errors.append((name, reason))
            continue

        cur = db.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT(msg_id) DO NOTHING",
            (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
             datetime.now().isoformat()))
        db.commit()
        if cur.rowcount == 0:
            duplicates.add(msg["msg_id"])
        os.rename(work, os.path.join(DONE, name))

    db.close()

    with open(os.path.join(ROOT, "dup.txt"), "w", encoding="utf-8") as f:
        for msg_id in sorted(duplicates):
            f.write(msg_id + "\n")
    with open(os.path.join(ROOT, "error.csv"), "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["file", "reason"])
        out.writerows(sorted(errors))
    print("done:", len(os.listdir(DONE)), "error:", len(os.listdir(ERROR)),
          "duplicates:", len(duplicates))


if __name__ == "__main__":
    main()
