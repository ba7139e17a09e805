import os
import json
import sqlite3
import datetime

QDIR = "/root/q"
REQUIRED = ["msg_id", "order_no", "seq", "amount"]

print("start consumer")
con = sqlite3.connect(QDIR + "/ledger.db", timeout=30)
con.execute("""
CREATE TABLE IF NOT EXISTS processed (
    msg_id TEXT PRIMARY KEY,
    order_no TEXT,
    seq INTEGER,
    amount NUMERIC,
    processed_at TEXT
)
""")
con.commit()

for name in sorted(os.listdir(QDIR + "/inbox")):
    inbox_path = os.path.join(QDIR, "inbox", name)
    proc_path = os.path.join(QDIR, "processing", name)
    if not os.path.isfile(inbox_path):
        continue
    try:
        os.rename(inbox_path, proc_path)
    except Exception as e:
        print("could not take", name, "->", e)
        continue

    try:
        with open(proc_path, encoding="utf-8") as f:
            data = json.load(f)
        if not isinstance(data, dict):
            raise ValueError("json is not an object")
    except Exception as e:
        print("[PARSE FAIL]", name, e)
        os.rename(proc_path, os.path.join(QDIR, "error", name))
        continue

    # check required fields
    ok = True
    for key in REQUIRED:
        if not data.get(key):
            print("[MISSING]", name, key)
            ok = False
    if not ok:
        os.rename(proc_path, os.path.join(QDIR, "error", name))
        continue

    try:
        cur = con.execute(
            "INSERT OR IGNORE INTO processed VALUES (?, ?, ?, ?, ?)",
            (data["msg_id"], data["order_no"], data["seq"], data["amount"],
             datetime.datetime.now().isoformat()),
        )
        con.commit()
        if cur.rowcount == 1:
            print("[OK]", name, data["msg_id"])
        else:
            print("[DUP]", name, data["msg_id"])
    except Exception as e:
        print("[DB ERROR]", name, e)
    os.rename(proc_path, os.path.join(QDIR, "done", name))

con.close()
print("end consumer")
