#!/usr/bin/env python3
# consume.py -- queue consumer; also refreshes dup.txt and error.csv from the events table
import csv
import json
import os
import sqlite3
import time

Q = os.environ.get("LAB_ROOT", "/root").rstrip("/") + "/q"
REQUIRED = ["msg_id", "order_no", "seq", "amount"]

con = sqlite3.connect(f"{Q}/ledger.db", timeout=30)
con.executescript("""
    CREATE TABLE IF NOT EXISTS processed (
        msg_id       TEXT PRIMARY KEY,
        order_no     TEXT NOT NULL,
        seq          INTEGER NOT NULL,
        amount       NUMERIC NOT NULL,
        processed_at REAL NOT NULL          -- julianday()
    );
    CREATE TABLE IF NOT EXISTS events (
        id      INTEGER PRIMARY KEY,
        file    TEXT NOT NULL,
        msg_id  TEXT,
        kind    TEXT NOT NULL,              -- inserted | duplicate | parse | missing-field
        at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f', 'now'))
    );
""")


def event(file, kind, msg_id=None):
    con.execute("INSERT INTO events (file, msg_id, kind) VALUES (?, ?, ?)", (file, msg_id, kind))


def process(name):
    work = f"{Q}/processing/{name}"
    try:
        os.rename(f"{Q}/inbox/{name}", work)
    except FileNotFoundError:
        return
    with open(work, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    try:
        payload = json.loads(text)
    except json.JSONDecodeError:
        with con:
            event(name, "parse")
        os.rename(work, f"{Q}/error/{name}")
        return
    missing = [f for f in REQUIRED if payload.get(f) is None]
    if missing:
        with con:
            event(name, "missing-field")
        os.rename(work, f"{Q}/error/{name}")
        return
    with con:
        cur = con.execute(
            """INSERT INTO processed (msg_id, order_no, seq, amount, processed_at)
               VALUES (:msg_id, :order_no, :seq, :amount, julianday('now'))
               ON CONFLICT (msg_id) DO NOTHING""",
            {k: payload[k] for k in REQUIRED})
        event(name, "inserted" if cur.rowcount else "duplicate", payload["msg_id"])
    os.rename(work, f"{Q}/done/{name}")


for d in ("inbox", "processing", "done", "error"):
    os.makedirs(f"{Q}/{d}", exist_ok=True)
t0 = time.time()
while True:
    names = sorted(n for n in os.listdir(f"{Q}/inbox") if os.path.isfile(f"{Q}/inbox/{n}"))
    if not names:
        break
    for n in names:
        process(n)

# reports
with open(f"{Q}/dup.txt", "w") as fh:
    for (mid,) in con.execute("SELECT DISTINCT msg_id FROM events WHERE kind = 'duplicate' ORDER BY msg_id"):
        fh.write(mid + "\n")
with open(f"{Q}/error.csv", "w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(["file", "reason"])
    w.writerows(con.execute("SELECT file, MAX(kind) FROM events WHERE kind IN ('parse', 'missing-field') "
                            "GROUP BY file ORDER BY file"))
con.close()
print(f"consume.py finished in {time.time() - t0:.2f}s")
