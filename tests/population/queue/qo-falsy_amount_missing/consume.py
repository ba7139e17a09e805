import json
import os
import sqlite3
from datetime import datetime

BASE = "/root/q"
INBOX = f"{BASE}/inbox"
PROCESSING = f"{BASE}/processing"
DONE = f"{BASE}/done"
ERROR = f"{BASE}/error"
REQUIRED = ["msg_id", "order_no", "seq", "amount"]

conn = sqlite3.connect(f"{BASE}/ledger.db", timeout=30)
conn.execute("""
    CREATE TABLE IF NOT EXISTS processed (
        msg_id TEXT PRIMARY KEY,
        order_no TEXT,
        seq INTEGER,
        amount INTEGER,
        processed_at TEXT
    )
""")
conn.commit()

stats = {"stored": 0, "duplicate": 0, "error": 0}

while True:
    names = sorted(f for f in os.listdir(INBOX) if os.path.isfile(os.path.join(INBOX, f)))
    if not names:
        break
    for name in names:
        src = os.path.join(INBOX, name)
        work = os.path.join(PROCESSING, name)
        try:
            os.rename(src, work)          # claim
        except FileNotFoundError:
            continue                      # someone else has it

        with open(work, "rb") as f:
            raw = f.read()

        try:
            msg = json.loads(raw)
        except ValueError:
            msg = None
        if not isinstance(msg, dict):
            os.rename(work, os.path.join(ERROR, name))
            print(f"ERROR,{name},parse")
            stats["error"] += 1
            continue

        # every required field must be filled in
        if not all(msg.get(k) for k in REQUIRED):
            os.rename(work, os.path.join(ERROR, name))
            print(f"ERROR,{name},missing-field")
            stats["error"] += 1
            continue

        values = [msg[k] if not isinstance(msg[k], (dict, list)) else json.dumps(msg[k]) for k in REQUIRED]
        cur = conn.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT(msg_id) DO NOTHING",
            values + [datetime.now().isoformat()],
        )
        conn.commit()
        os.rename(work, os.path.join(DONE, name))
        if cur.rowcount == 1:
            stats["stored"] += 1
        else:
            stats["duplicate"] += 1
            print(f"DUP,{name},{msg['msg_id']}")

conn.close()
print(stats)
