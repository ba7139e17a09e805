#!/usr/bin/env python3
# consume.py: inbox -> processing -> done/error, ledger in sqlite
import json, os, sqlite3, sys, time

Q = sys.argv[1] if len(sys.argv) > 1 else "/root/q"
NEED = ("msg_id", "order_no", "seq", "amount")

db = sqlite3.connect(f"{Q}/ledger.db", timeout=60)
db.executescript("""
CREATE TABLE IF NOT EXISTS processed (
  msg_id TEXT, order_no TEXT, seq INTEGER, amount NUMERIC, processed_at TEXT,
  PRIMARY KEY (msg_id)
);
""")

def verdict(path):
    try:
        with open(path, "rb") as fh:
            m = json.load(fh)
    except Exception:
        return None, "parse"
    if not isinstance(m, dict):
        return None, "parse"
    if any(m.get(k) is None for k in NEED):
        return None, "missing-field"
    return m, None

with os.scandir(f"{Q}/inbox") as it:
    names = sorted(e.name for e in it)

for n in names:
    work = f"{Q}/processing/{n}"
    try:
        os.rename(f"{Q}/inbox/{n}", work)
    except FileNotFoundError:
        continue
    m, why = verdict(work)
    if why:
        os.rename(work, f"{Q}/error/{n}")
        print(f"error\t{n}\t{why}")
        continue
    with db:
        c = db.execute("INSERT OR IGNORE INTO processed VALUES (?,?,?,?,?)",
                       (m["msg_id"], m["order_no"], m["seq"], m["amount"],
                        time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))
    if c.rowcount == 0:
        print(f"dup\t{n}\t{m['msg_id']}")
    os.rename(work, f"{Q}/done/{n}")
