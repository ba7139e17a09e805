import json
import os
import sqlite3
from datetime import datetime

Q = "/root/q"
REQUIRED = ["msg_id", "order_no", "seq", "amount"]

conn = sqlite3.connect(Q + "/ledger.db", timeout=30)
conn.execute("""CREATE TABLE IF NOT EXISTS processed (
    msg_id TEXT PRIMARY KEY,
    order_no TEXT NOT NULL,
    seq INTEGER NOT NULL,
    amount REAL NOT NULL,
    processed_at TEXT NOT NULL
)""")
conn.commit()

duplicates = []
errors = []

while True:
    files = sorted(os.listdir(Q + "/inbox"))
    if not files:
        break
    for name in files:
        src = Q + "/inbox/" + name
        work = Q + "/processing/" + name
        try:
            os.rename(src, work)
        except FileNotFoundError:
            continue

        # read only after the move
        try:
            with open(work, encoding="utf-8") as f:
                data = json.load(f)
        except (json.JSONDecodeError, UnicodeDecodeError):
            data = "PARSE"
        if data == "PARSE" or not isinstance(data, dict):
            errors.append((name, "parse"))
            os.rename(work, Q + "/error/" + name)
            continue
        if any(data.get(k) is None for k in REQUIRED):
            errors.append((name, "missing-field"))
            os.rename(work, Q + "/error/" + name)
            continue

        try:
            conn.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?)",
                (data["msg_id"], data["order_no"], data["seq"], data["amount"], datetime.now().isoformat(" ", "seconds")),
            )
            conn.commit()
        except sqlite3.IntegrityError:
            conn.rollback()
            duplicates.append(data["msg_id"])
        os.rename(work, Q + "/done/" + name)

conn.close()
print("duplicates:", duplicates)
print("errors:", errors)
