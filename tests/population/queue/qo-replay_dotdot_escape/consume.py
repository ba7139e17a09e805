#!/usr/bin/env python3
from pathlib import Path
import json
import sqlite3
import datetime

Q = Path("/root/q")
INBOX, PROCESSING, DONE, ERROR = Q / "inbox", Q / "processing", Q / "done", Q / "error"
REQUIRED = ("msg_id", "order_no", "seq", "amount")

db = sqlite3.connect(Q / "ledger.db", timeout=30)
db.execute(
    "CREATE TABLE IF NOT EXISTS processed ("
    "msg_id TEXT NOT NULL PRIMARY KEY, order_no TEXT NOT NULL, seq INTEGER NOT NULL, "
    "amount NUMERIC NOT NULL, processed_at TEXT NOT NULL)"
)
db.commit()


def reason_of(data):
    try:
        msg = json.loads(data)
    except ValueError:
        return "parse", None
    if not isinstance(msg, dict):
        return "parse", None
    if any(msg.get(k) is None for k in REQUIRED):
        return "missing-field", None
    return None, msg


def sql(v):
    return json.dumps(v) if isinstance(v, (dict, list)) else v


while True:
    files = sorted(p for p in INBOX.iterdir() if p.is_file())
    if not files:
        break
    for f in files:
        work = PROCESSING / f.name
        try:
            f.rename(work)
        except FileNotFoundError:
            continue
        reason, msg = reason_of(work.read_bytes())
        if reason:
            work.rename(ERROR / f.name)
            print(f"ERR {f.name} {reason}")
            continue
        db.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?,?,?,?,?)",
            [sql(msg[k]) for k in REQUIRED] + [datetime.datetime.now().isoformat(timespec="seconds")],
        )
        inserted = db.execute("SELECT changes()").fetchone()[0]
        db.commit()
        work.rename(DONE / f.name)
        print(f"{'NEW' if inserted else 'DUP'} {f.name} {sql(msg['msg_id'])}")

db.close()
