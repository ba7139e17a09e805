#!/usr/bin/env python3
# consume.py : inbox -> processing -> done / error
# (파이썬은 랩에서 시켜서 씀... 나머지는 쉘로)
import os
import sys
import json
import sqlite3
from datetime import datetime, timezone

Q = "/root/q"
INBOX = os.path.join(Q, "inbox")
PROC = os.path.join(Q, "processing")
DONE = os.path.join(Q, "done")
ERR = os.path.join(Q, "error")
DB = os.path.join(Q, "ledger.db")
REQUIRED = ("msg_id", "order_no", "seq", "amount")


def log(*a):
    print(*a, flush=True)


def main():
    for d in (INBOX, PROC, DONE, ERR):
        os.makedirs(d, exist_ok=True)

    con = sqlite3.connect(DB, timeout=60)
    con.execute("""
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       TEXT PRIMARY KEY,
            order_no     TEXT NOT NULL,
            seq          INTEGER NOT NULL,
            amount       NUMERIC NOT NULL,
            processed_at TEXT NOT NULL
        )""")
    con.commit()

    for name in sorted(os.listdir(INBOX)):
        src = os.path.join(INBOX, name)
        work = os.path.join(PROC, name)
        if not os.path.isfile(src):
            continue
        # 먼저 processing 으로 옮긴다 (claim). 실패 = 다른 consumer 가 가져감
        try:
            os.rename(src, work)
        except FileNotFoundError:
            continue

        try:
            with open(work, "r", encoding="utf-8") as fh:
                msg = json.load(fh)
        except (ValueError, UnicodeDecodeError):
            os.rename(work, os.path.join(ERR, name))
            log("ERR", name, "parse")
            continue
        if not isinstance(msg, dict):
            os.rename(work, os.path.join(ERR, name))
            log("ERR", name, "parse")
            continue

        missing = [k for k in REQUIRED if msg.get(k) is None]
        if missing:
            os.rename(work, os.path.join(ERR, name))
            log("ERR", name, "missing-field", ",".join(missing))
            continue

        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        cur = con.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], now))
        con.commit()
        if cur.rowcount == 0:
            log("DUP", msg["msg_id"], name)
        else:
            log("OK", msg["msg_id"], name)
        os.rename(work, os.path.join(DONE, name))

    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
