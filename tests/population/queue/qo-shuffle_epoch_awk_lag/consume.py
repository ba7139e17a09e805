#!/usr/bin/env python3
# consume.py  --  inbox -> processing -> done | error
# stdout: "<status>\t<file>\t<detail>"   status = new | dup | error
import json
import os
import random
import shutil
import sqlite3
import time

Q = "/root/q"
D = {d: os.path.join(Q, d) for d in ("inbox", "processing", "done", "error")}
KEYS = ("msg_id", "order_no", "seq", "amount")

con = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=30)
con.execute("""
CREATE TABLE IF NOT EXISTS processed (
    msg_id        TEXT    NOT NULL,
    order_no      TEXT    NOT NULL,
    seq           INTEGER NOT NULL,
    amount        NUMERIC NOT NULL,
    processed_at  INTEGER NOT NULL,          -- unix epoch, milliseconds
    CONSTRAINT processed_msg_id_uq UNIQUE (msg_id)
)""")
con.commit()


def verdict(raw):
    try:
        m = json.loads(raw)
    except ValueError:
        return "parse", None
    if not isinstance(m, dict):
        return "parse", None
    if any(m.get(k) is None for k in KEYS):
        return "missing-field", None
    return None, m


def plain(v):
    return json.dumps(v) if isinstance(v, (dict, list)) else v


while True:
    todo = [n for n in os.listdir(D["inbox"]) if os.path.isfile(os.path.join(D["inbox"], n))]
    if not todo:
        break
    random.shuffle(todo)          # two consumers -> different starting points
    for name in todo:
        work = os.path.join(D["processing"], name)
        try:
            shutil.move(os.path.join(D["inbox"], name), work)   # same fs: os.rename
        except FileNotFoundError:
            continue              # claimed by the other consumer
        with open(work, "rb") as fh:
            why, m = verdict(fh.read())
        if why:
            shutil.move(work, os.path.join(D["error"], name))
            print("error", name, why, sep="\t", flush=True)
            continue
        cur = con.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?)",
            [plain(m[k]) for k in KEYS] + [time.time_ns() // 1_000_000])
        con.commit()
        shutil.move(work, os.path.join(D["done"], name))
        print("new" if cur.rowcount else "dup", name, plain(m["msg_id"]), sep="\t", flush=True)

con.close()
