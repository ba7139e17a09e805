#!/usr/bin/env python3
"""consume.py - directory queue consumer (lab: queue)

 inbox --rename--> processing --> done   (inserted, or ignored as duplicate)
                              \-> error  (parse / missing-field)

processing/ must be empty when a run ends (step 3). Whatever is found there
before or after a run was left behind by a run that crashed, so it can not be
trusted: it is parked in error/ for a human to look at (and replay.sh).
"""
import json
import os
import sqlite3
import sys
from datetime import datetime, timezone

ROOT = "/root/q"
INBOX = os.path.join(ROOT, "inbox")
PROCESSING = os.path.join(ROOT, "processing")
DONE = os.path.join(ROOT, "done")
ERROR = os.path.join(ROOT, "error")
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def connect():
    db = sqlite3.connect(os.path.join(ROOT, "ledger.db"), timeout=30)
    db.execute(
        """CREATE TABLE IF NOT EXISTS processed (
               msg_id       TEXT NOT NULL UNIQUE,
               order_no     TEXT NOT NULL,
               seq          INTEGER NOT NULL,
               amount       INTEGER NOT NULL,
               processed_at TEXT NOT NULL
           )"""
    )
    db.commit()
    return db


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


def as_sql(v):
    return json.dumps(v) if isinstance(v, (dict, list)) else v


def handle(db, name):
    work = os.path.join(PROCESSING, name)
    with open(work, "rb") as f:
        msg, reason = classify(f.read())
    if reason:
        os.rename(work, os.path.join(ERROR, name))
        print(f"error\t{name}\t{reason}")
        return
    cur = db.execute(
        "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_id) DO NOTHING",
        [as_sql(msg[k]) for k in REQUIRED] + [datetime.now(timezone.utc).isoformat()],
    )
    db.commit()
    os.rename(work, os.path.join(DONE, name))
    print(f"{'stored' if cur.rowcount == 1 else 'duplicate'}\t{name}\t{as_sql(msg['msg_id'])}")


def sweep_processing():
    """leave processing/ empty: leftovers can not be trusted, park them in error/."""
    for name in os.listdir(PROCESSING):
        os.rename(os.path.join(PROCESSING, name), os.path.join(ERROR, name))
        print(f"swept\t{name}\tleft in processing", file=sys.stderr)


def main():
    sweep_processing()  # leftovers of a crashed run
    db = connect()
    while True:
        names = sorted(n for n in os.listdir(INBOX) if os.path.isfile(os.path.join(INBOX, n)))
        if not names:
            break
        for name in names:
            try:
                os.rename(os.path.join(INBOX, name), os.path.join(PROCESSING, name))
            except FileNotFoundError:
                continue  # the other consumer claimed it
            handle(db, name)
    db.close()
    sweep_processing()


if __name__ == "__main__":
    main()
