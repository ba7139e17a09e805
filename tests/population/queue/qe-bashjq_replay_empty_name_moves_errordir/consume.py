#!/usr/bin/env python3
# consume.py -- would have been a bash loop, but the lab wants python.
# inbox -> processing (mv) -> read -> ledger.db -> done | error
import json
import os
import sqlite3
import time

Q = "/root/q"

db = sqlite3.connect(f"{Q}/ledger.db", timeout=30)
db.execute("""create table if not exists processed (
    msg_id text primary key,
    order_no text,
    seq integer,
    amount integer,
    processed_at text
)""")
db.commit()

for name in sorted(os.listdir(f"{Q}/inbox")):
    if not os.path.isfile(f"{Q}/inbox/{name}"):
        continue
    # mv inbox/x processing/x
    try:
        os.rename(f"{Q}/inbox/{name}", f"{Q}/processing/{name}")
    except FileNotFoundError:
        continue
    work = f"{Q}/processing/{name}"

    try:
        with open(work, "rb") as fh:
            msg = json.loads(fh.read())
    except ValueError:              # bad json, bad utf-8
        msg = None
    if not isinstance(msg, dict):
        os.rename(work, f"{Q}/error/{name}")
        continue
    if any(msg.get(k) is None for k in ("msg_id", "order_no", "seq", "amount")):
        os.rename(work, f"{Q}/error/{name}")
        continue

    db.execute("insert into processed (msg_id, order_no, seq, amount, processed_at) "
               "values (?, ?, ?, ?, ?) on conflict(msg_id) do nothing",
               (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
                time.strftime("%Y-%m-%d %H:%M:%S")))
    db.commit()
    os.rename(work, f"{Q}/done/{name}")
