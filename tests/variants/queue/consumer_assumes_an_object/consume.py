#!/usr/bin/env python3
# 3단계 소비자: inbox 의 파일을 processing 으로 옮긴 뒤 읽고, done 또는 error 로 보낸다.
import datetime
import json
import os
import sqlite3

root = os.environ.get("LAB_ROOT", "/root")
q = os.path.join(root, "q")

con = sqlite3.connect(os.path.join(q, "ledger.db"), timeout=15)
con.execute("""create table if not exists processed (
  msg_id text primary key,
  order_no text not null,
  seq integer not null,
  amount integer not null,
  processed_at text not null)""")
con.commit()

for name in sorted(os.listdir(os.path.join(q, "inbox"))):
    src = os.path.join(q, "inbox", name)
    cur = os.path.join(q, "processing", name)
    try:
        os.rename(src, cur)
    except FileNotFoundError:
        continue

    reason = None
    try:
        with open(cur, "rb") as f:
            m = json.load(f)
    except ValueError:
        reason = "parse"
    else:
        for k in ("msg_id", "order_no", "seq", "amount"):
            if m.get(k) is None:
                reason = "missing-field"
                break

    if reason:
        os.rename(cur, os.path.join(q, "error", name))
        print("error", reason, name)
        continue

    now = datetime.datetime.utcnow().isoformat()
    c = con.execute(
        "insert or ignore into processed values (?,?,?,?,?)",
        (m["msg_id"], m["order_no"], m["seq"], m["amount"], now),
    )
    con.commit()
    os.rename(cur, os.path.join(q, "done", name))
    if c.rowcount == 0:
        print("duplicate", m["msg_id"], name)
    else:
        print("done", name)
