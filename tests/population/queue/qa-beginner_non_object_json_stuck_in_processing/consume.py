# consume.py - my queue consumer
import os
import json
import sqlite3
from datetime import datetime

inbox = "/root/q/inbox/"
processing = "/root/q/processing/"
done = "/root/q/done/"
error = "/root/q/error/"

db = sqlite3.connect("/root/q/ledger.db", timeout=30)
db.execute("create table if not exists processed (msg_id text primary key, order_no text, seq integer, amount integer, processed_at text)")
db.commit()

stats = {"done": 0, "error": 0, "dup": 0}

for f in sorted(os.listdir(inbox)):
    try:
        os.rename(inbox + f, processing + f)   # claim it
    except Exception as e:
        print("skip", f, e)
        continue

    try:
        try:
            raw = open(processing + f, encoding="utf-8").read()
            data = json.loads(raw)
        except ValueError:
            print("Decoding JSON has failed:", f)
            os.rename(processing + f, error + f)
            stats["error"] += 1
            continue

        missing = [k for k in ("msg_id", "order_no", "seq", "amount") if data.get(k) is None]
        if missing:
            print("missing fields", missing, "in", f)
            os.rename(processing + f, error + f)
            stats["error"] += 1
            continue

        cur = db.execute("insert or ignore into processed values (?,?,?,?,?)",
                         (data["msg_id"], data["order_no"], data["seq"], data["amount"],
                          datetime.now().strftime("%Y-%m-%d %H:%M:%S")))
        db.commit()
        if cur.rowcount == 0:
            print("dup", data["msg_id"])
            stats["dup"] += 1
        os.rename(processing + f, done + f)
        stats["done"] += 1
    except Exception as e:
        print("something went wrong with", f, ":", e)

db.close()
print(stats)
