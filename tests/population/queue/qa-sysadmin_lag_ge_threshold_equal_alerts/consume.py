#!/usr/bin/env python3
# minimal consumer: claim by rename, classify, INSERT OR IGNORE, move on
import json, os, sqlite3, sys, datetime

Q = "/root/q"
db = sqlite3.connect(f"{Q}/ledger.db", timeout=30)
db.execute("CREATE TABLE IF NOT EXISTS processed (msg_id TEXT PRIMARY KEY, order_no TEXT, seq INTEGER, amount NUMERIC, processed_at TEXT NOT NULL)")
db.commit()
rc = 0
for n in sorted(os.listdir(f"{Q}/inbox")):
    try:
        os.rename(f"{Q}/inbox/{n}", f"{Q}/processing/{n}")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        continue
    p = f"{Q}/processing/{n}"
    try:
        m = json.loads(open(p, "rb").read())
        assert isinstance(m, dict)
    except (ValueError, AssertionError):
        os.rename(p, f"{Q}/error/{n}"); print(f"{n}\tparse"); continue
    if any(m.get(k) is None for k in ("msg_id", "order_no", "seq", "amount")):
        os.rename(p, f"{Q}/error/{n}"); print(f"{n}\tmissing-field"); continue
    with db:
        c = db.execute("INSERT OR IGNORE INTO processed VALUES (?,?,?,?,?)",
                       (m["msg_id"], m["order_no"], m["seq"], m["amount"], datetime.datetime.now().isoformat(" ", "seconds")))
    print(f"{n}\t{'dup' if c.rowcount == 0 else 'ok'}\t{m['msg_id']}")
    os.rename(p, f"{Q}/done/{n}")
sys.exit(rc)
