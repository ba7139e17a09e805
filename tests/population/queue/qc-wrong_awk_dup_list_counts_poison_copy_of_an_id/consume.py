import json
import os
import sqlite3

q = os.path.join(os.environ.get("LAB_ROOT", "/root"), "q")
sub = lambda d, n="": os.path.join(q, d, n)

db = sqlite3.connect(os.path.join(q, "ledger.db"), timeout=30)
db.execute("create table if not exists processed ("
           "msg_id text, order_no text, seq integer, amount numeric, "
           "processed_at text default current_timestamp, unique (msg_id))")
db.commit()

for n in sorted(os.listdir(sub("inbox"))):
    try:
        os.replace(sub("inbox", n), sub("processing", n))
    except FileNotFoundError:
        continue
    try:
        with open(sub("processing", n), "rb") as f:
            m = json.load(f)
    except ValueError:
        m = "unparsable"
    ok = isinstance(m, dict) and all(m.get(k) is not None for k in ("msg_id", "order_no", "seq", "amount"))
    if ok:
        db.execute("insert into processed (msg_id, order_no, seq, amount) values (?, ?, ?, ?) "
                   "on conflict do nothing", (m["msg_id"], m["order_no"], m["seq"], m["amount"]))
        db.commit()
    os.replace(sub("processing", n), sub("done" if ok else "error", n))
