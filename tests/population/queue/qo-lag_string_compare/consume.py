#!/usr/bin/env python3
# consume.py : inbox -> processing -> done/error, ledger in /root/q/ledger.db
import json
import os
import sqlite3
import time

Q = "/root/q"
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def path(d, name=""):
    return os.path.join(Q, d, name)


def load(work):
    with open(work, "rb") as fh:
        try:
            msg = json.loads(fh.read())
        except ValueError:
            return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"
    for k in REQUIRED:
        if k not in msg or msg[k] is None:
            return None, "missing-field"
    return msg, None


def value(v):
    return json.dumps(v) if isinstance(v, (list, dict)) else v


def main():
    db = sqlite3.connect(path("", "ledger.db"), timeout=30)
    db.execute("""CREATE TABLE IF NOT EXISTS processed (
                      msg_id TEXT PRIMARY KEY,
                      order_no TEXT NOT NULL,
                      seq INTEGER NOT NULL,
                      amount INTEGER NOT NULL,
                      processed_at TEXT NOT NULL)""")
    db.commit()
    while True:
        batch = sorted(n for n in os.listdir(path("inbox")) if os.path.isfile(path("inbox", n)))
        if not batch:
            break
        for name in batch:
            work = path("processing", name)
            try:
                os.replace(path("inbox", name), work)
            except FileNotFoundError:
                continue
            msg, reason = load(work)
            if reason:
                os.replace(work, path("error", name))
                print(f"[error] {name} {reason}")
                continue
            try:
                with db:
                    db.execute("INSERT INTO processed VALUES (?, ?, ?, ?, ?)",
                               [value(msg[k]) for k in REQUIRED]
                               + [time.strftime("%Y-%m-%d %H:%M:%S")])
                print(f"[ok] {name} {value(msg['msg_id'])}")
            except sqlite3.IntegrityError:   # PRIMARY KEY says: seen before
                print(f"[dup] {name} {value(msg['msg_id'])}")
            os.replace(work, path("done", name))
    db.close()


if __name__ == "__main__":
    main()
