import json
import os
import shutil
import sqlite3
import time

Q = "/root/q"

print("DEBUG: opening db")
conn = sqlite3.connect(Q + "/ledger.db", timeout=30)
c = conn.cursor()
c.execute("CREATE TABLE IF NOT EXISTS processed (msg_id TEXT NOT NULL UNIQUE, order_no TEXT, seq INTEGER, amount NUMERIC, processed_at TEXT)")
conn.commit()

files = sorted(os.listdir(Q + "/inbox"))
print("DEBUG: files in inbox:", len(files))

for name in files:
    path = Q + "/inbox/" + name
    new_path = Q + "/processing/" + name
    try:
        os.rename(path, new_path)
    except FileNotFoundError:
        print("DEBUG: already taken", name)
        continue
    except Exception as e:
        print("DEBUG: rename failed", name, e)
        continue

    msg = None
    try:
        with open(new_path, "rb") as f:
            msg = json.loads(f.read())
    except Exception as e:
        print("DEBUG: json error in", name, e)

    if not isinstance(msg, dict):
        # not parsed, or parsed into something that is not {...}
        print("ERROR parse", name)
        shutil.move(new_path, Q + "/error/" + name)
        continue

    missing = []
    for field in ("msg_id", "order_no", "seq", "amount"):
        if field not in msg or msg[field] is None:
            missing.append(field)
    if len(missing) > 0:
        print("ERROR missing-field", name, missing)
        shutil.move(new_path, Q + "/error/" + name)
        continue

    try:
        c.execute("INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?)",
                  (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], time.strftime("%Y-%m-%d %H:%M:%S")))
        conn.commit()
        if c.rowcount == 0:
            print("DUP", msg["msg_id"], name)
        else:
            print("OK", msg["msg_id"], name)
    except Exception as e:
        print("DEBUG: insert failed", e)
    shutil.move(new_path, Q + "/done/" + name)

conn.close()
print("DEBUG: finished")
