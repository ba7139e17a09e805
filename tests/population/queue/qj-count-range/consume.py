import datetime
import json
import os
import sqlite3

BASE = "/root/q"
REQUIRED_FIELDS = ["msg_id", "order_no", "seq", "amount"]

con = sqlite3.connect(os.path.join(BASE, "ledger.db"), timeout=60)
con.execute("""
CREATE TABLE IF NOT EXISTS processed (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    msg_id       TEXT NOT NULL,
    order_no     TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    processed_at TEXT NOT NULL
)""")
con.execute("CREATE UNIQUE INDEX IF NOT EXISTS ux_processed_msg_id ON processed (msg_id)")
con.commit()

counts = {"done": 0, "error": 0, "duplicate": 0}
files = sorted(os.listdir(os.path.join(BASE, "inbox")))
for fname in files:
    inbox_path = os.path.join(BASE, "inbox", fname)
    proc_path = os.path.join(BASE, "processing", fname)
    try:
        os.rename(inbox_path, proc_path)
    except FileNotFoundError:
        continue

    reason = None
    try:
        with open(proc_path, "rb") as f:
            data = json.loads(f.read())
        if type(data) != dict:
            reason = "parse"
    except Exception:
        reason = "parse"
    if reason is None:
        missing = [k for k in REQUIRED_FIELDS if data.get(k) is None]
        if missing:
            reason = "missing-field"

    if reason is not None:
        os.rename(proc_path, os.path.join(BASE, "error", fname))
        counts["error"] += 1
        print("error", fname, reason)
        continue

    cur = con.execute(
        "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (msg_id) DO NOTHING",
        (data["msg_id"], data["order_no"], data["seq"], data["amount"],
         datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")),
    )
    con.commit()
    if cur.rowcount == 0:
        counts["duplicate"] += 1
        print("duplicate", fname, data["msg_id"])
    os.rename(proc_path, os.path.join(BASE, "done", fname))
    counts["done"] += 1

con.close()
print("summary", counts)
