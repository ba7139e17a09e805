#!/usr/bin/env python3
import glob
import json
import os
import sqlite3
import time

Q = "/root/q"
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def db():
    con = sqlite3.connect(f"{Q}/ledger.db", timeout=30)
    con.execute("""CREATE TABLE IF NOT EXISTS processed (
                       msg_id TEXT UNIQUE NOT NULL,
                       order_no TEXT, seq INTEGER, amount NUMERIC,
                       processed_at TEXT)""")
    con.commit()
    return con


def problem(msg):
    if not isinstance(msg, dict):
        return "parse"
    if any(msg.get(f) is None for f in REQUIRED):
        return "missing-field"
    return None


def main():
    con = db()
    while True:
        todo = sorted(glob.glob(f"{Q}/inbox/*")) + sorted(glob.glob(f"{Q}/inbox/.*"))
        todo = [p for p in todo if os.path.isfile(p)]
        if not todo:
            break
        took = 0
        for path in todo:
            name = os.path.basename(path)
            work = f"{Q}/processing/{name}"
            try:
                os.replace(path, work)
            except FileNotFoundError:
                continue
            took += 1
            try:
                with open(work, encoding="utf-8") as fh:
                    msg = json.load(fh)
                why = problem(msg)
            except ValueError:
                why = "parse"
            if why:
                os.replace(work, f"{Q}/error/{name}")
                print(f"{name} -> error ({why})")
                continue
            with con:
                n = con.execute(
                    "INSERT INTO processed(msg_id, order_no, seq, amount, processed_at) "
                    "VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING",
                    (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
                     time.strftime("%Y-%m-%dT%H:%M:%S%z"))).rowcount
            os.replace(work, f"{Q}/done/{name}")
            print(f"{name} -> done" + ("" if n else f" (duplicate {msg['msg_id']})"))
        if not took:
            break
    con.close()


if __name__ == "__main__":
    main()
