#!/usr/bin/env python3
"""queue consumer: inbox -> processing -> done/error, ledger in sqlite with msg_id PK."""
import datetime as dt
import json
import os
import sqlite3
import sys

QUEUE = "/root/q"
REQ = ("msg_id", "order_no", "seq", "amount")


class Skip(Exception):
    pass


def claim(name):
    try:
        os.rename(f"{QUEUE}/inbox/{name}", f"{QUEUE}/processing/{name}")
    except FileNotFoundError:
        raise Skip(name)
    return f"{QUEUE}/processing/{name}"


def verdict(path):
    try:
        with open(path, "rb") as fh:
            body = json.loads(fh.read().decode("utf-8"))
    except ValueError:
        return "parse", None
    if type(body) is not dict:
        return "parse", None
    if any(body.get(k) is None for k in REQ):
        return "missing-field", None
    return "ok", body


def main(argv):
    con = sqlite3.connect(f"{QUEUE}/ledger.db", timeout=30.0)
    con.execute("CREATE TABLE IF NOT EXISTS processed (msg_id TEXT PRIMARY KEY, order_no TEXT, "
                "seq INTEGER, amount REAL, processed_at TEXT DEFAULT CURRENT_TIMESTAMP)")
    con.commit()
    counts = {"ok": 0, "dup": 0, "parse": 0, "missing-field": 0}
    while True:
        names = sorted(os.listdir(f"{QUEUE}/inbox"))
        if not names:
            break
        progress = False
        for name in names:
            try:
                work = claim(name)
            except Skip:
                continue
            progress = True
            kind, msg = verdict(work)
            if kind != "ok":
                os.rename(work, f"{QUEUE}/error/{name}")
                counts[kind] += 1
                print(f"ERROR {name} {kind}")
                continue
            cur = con.execute("INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) "
                              "VALUES (?, ?, ?, ?, ?)",
                              (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
                               dt.datetime.now().isoformat(sep=" ", timespec="seconds")))
            con.commit()
            if cur.rowcount:
                counts["ok"] += 1
            else:
                counts["dup"] += 1
                print(f"DUP {name} {msg['msg_id']}")
            os.rename(work, f"{QUEUE}/done/{name}")
        if not progress:
            break
    con.close()
    print("SUMMARY", " ".join(f"{k}={v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
