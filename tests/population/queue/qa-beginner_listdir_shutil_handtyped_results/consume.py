import os
import json
import sqlite3
import shutil
from datetime import datetime

base = "/root/q"
inbox = base + "/inbox"
processing = base + "/processing"
done = base + "/done"
error = base + "/error"

print("connecting db...")
conn = sqlite3.connect(base + "/ledger.db", timeout=30)
cur = conn.cursor()
cur.execute("""CREATE TABLE IF NOT EXISTS processed (
    msg_id TEXT PRIMARY KEY,
    order_no TEXT,
    seq INTEGER,
    amount INTEGER,
    processed_at TEXT
)""")
conn.commit()

files = os.listdir(inbox)
files.sort()
print("found", len(files), "files")

for filename in files:
    src = os.path.join(inbox, filename)
    work = os.path.join(processing, filename)
    # move first!! (so another consumer can't take the same file)
    try:
        os.rename(src, work)
    except Exception as e:
        print("skip", filename, e)
        continue

    # now read it
    try:
        f = open(work, "r", encoding="utf-8")
        text = f.read()
        f.close()
    except Exception as e:
        print("cannot read", filename, e)
        text = None

    try:
        data = json.loads(text)
    except Exception as e:
        print("PARSE ERROR", filename, e)
        shutil.move(work, os.path.join(error, filename))
        continue

    if not isinstance(data, dict):
        # valid json but not an object like {...}
        print("PARSE ERROR (not an object)", filename)
        shutil.move(work, os.path.join(error, filename))
        continue

    missing = False
    for key in ["msg_id", "order_no", "seq", "amount"]:
        if key not in data or data[key] is None:
            print("MISSING FIELD", key, "in", filename)
            missing = True
    if missing:
        shutil.move(work, os.path.join(error, filename))
        continue

    try:
        cur.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?)",
            (data["msg_id"], data["order_no"], data["seq"], data["amount"], str(datetime.now())),
        )
        conn.commit()
        if cur.rowcount == 0:
            print("DUPLICATE", data["msg_id"], filename)
        else:
            print("inserted", data["msg_id"], filename)
    except Exception as e:
        print("DB ERROR", filename, e)
        conn.rollback()

    shutil.move(work, os.path.join(done, filename))

conn.close()
print("finished")
