#!/usr/bin/env python3
"""Consumer: the same message twice must not be stored twice -> key on a hash of its body."""

import hashlib
import json
import os
import sqlite3
import time

Q = os.path.join(os.environ.get("LAB_ROOT", "/root"), "q")

db = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=30)
db.execute(
    """CREATE TABLE IF NOT EXISTS processed (
        body_sha     TEXT PRIMARY KEY,
        msg_id       TEXT NOT NULL,
        order_no     TEXT NOT NULL,
        seq          INTEGER NOT NULL,
        amount       INTEGER NOT NULL,
        processed_at TEXT NOT NULL
    )"""
)
db.commit()


def move(name, src, dst):
    os.rename(os.path.join(Q, src, name), os.path.join(Q, dst, name))


for name in sorted(os.listdir(os.path.join(Q, "inbox"))):
    try:
        move(name, "inbox", "processing")
    except FileNotFoundError:
        continue
    raw = open(os.path.join(Q, "processing", name), "rb").read()
    try:
        msg = json.loads(raw)
    except ValueError:
        move(name, "processing", "error")
        print("error parse", name)
        continue
    if not isinstance(msg, dict):
        move(name, "processing", "error")
        print("error parse", name)
        continue
    if any(msg.get(f) is None for f in ("msg_id", "order_no", "seq", "amount")):
        move(name, "processing", "error")
        print("error missing-field", name)
        continue
    sha = hashlib.sha256(raw).hexdigest()
    with db:
        cur = db.execute(
            "INSERT OR IGNORE INTO processed VALUES (?, ?, ?, ?, ?, ?)",
            (
                sha,
                msg["msg_id"],
                msg["order_no"],
                msg["seq"],
                msg["amount"],
                time.strftime("%Y-%m-%d %H:%M:%S"),
            ),
        )
    move(name, "processing", "done")
    print(("done %s" % name) if cur.rowcount else ("duplicate %s %s" % (msg["msg_id"], name)))
