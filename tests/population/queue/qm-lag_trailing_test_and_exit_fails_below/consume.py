#!/usr/bin/env python3
import json, os, sqlite3, time

Q = "/root/q"
db = sqlite3.connect(f"{Q}/ledger.db", timeout=20)
db.execute("create table if not exists processed (msg_id text primary key, order_no text, seq integer, amount numeric, processed_at text)")
db.commit()

for f in sorted(os.listdir(f"{Q}/inbox")):
    p = f"{Q}/processing/{f}"
    try:
        os.rename(f"{Q}/inbox/{f}", p)
    except FileNotFoundError:
        continue
    try:
        m = json.loads(open(p, "rb").read())
        bad = "parse" if not isinstance(m, dict) else None
    except ValueError:
        bad = "parse"
    if not bad and any(m.get(k) is None for k in ("msg_id", "order_no", "seq", "amount")):
        bad = "missing-field"
    if bad:
        os.rename(p, f"{Q}/error/{f}")
        print(f"ERR {f} {bad}")
        continue
    v = [m[k] if not isinstance(m[k], (list, dict)) else json.dumps(m[k]) for k in ("msg_id", "order_no", "seq", "amount")]
    c = db.execute("insert or ignore into processed values (?,?,?,?,?)", v + [time.strftime("%Y-%m-%dT%H:%M:%S")])
    db.commit()
    os.rename(p, f"{Q}/done/{f}")
    print(("DUP " if c.rowcount == 0 else "OK ") + f"{f} {m['msg_id']}")
