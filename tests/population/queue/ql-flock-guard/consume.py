#!/usr/bin/env python3
# -*- coding: utf-8 -*-
# 소비자: inbox -> processing -> (ledger.db) -> done | error
import fcntl, json, os, sqlite3, sys
from datetime import datetime

Q = "/root/q"
필수 = ("msg_id", "order_no", "seq", "amount")

SCHEMA = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT    NOT NULL,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    processed_at TEXT    NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS processed_msg_id_uq ON processed (msg_id);
"""


def main():
    # 크론에서 쓰던 flock -n 처럼: 이미 하나 돌고 있으면 바로 빠진다 (중복 실행 방지)
    lockf = open(Q + "/.consume.lock", "w")
    try:
        fcntl.flock(lockf, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("consume.py: another consumer is running, exiting", file=sys.stderr)
        return 1

    for d in ("inbox", "processing", "done", "error"):
        os.makedirs(f"{Q}/{d}", exist_ok=True)
    con = sqlite3.connect(Q + "/ledger.db", timeout=30)
    con.executescript(SCHEMA)
    for name in sorted(os.listdir(Q + "/inbox")):
        src = f"{Q}/inbox/{name}"
        cur = f"{Q}/processing/{name}"
        if not os.path.isfile(src):
            continue
        try:
            os.rename(src, cur)          # 원자적 이동으로 내 것 만들기
        except FileNotFoundError:
            continue
        try:
            with open(cur, encoding="utf-8") as f:
                data = json.load(f)
        except ValueError:
            data = None
            reason = "parse"
        else:
            if not isinstance(data, dict):
                reason = "parse"
            elif any(data.get(k) is None for k in 필수):
                reason = "missing-field"
            else:
                reason = None
        if reason:
            print("ERR", name, reason)
            os.rename(cur, f"{Q}/error/{name}")
            continue
        before = con.total_changes
        con.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (data["msg_id"], data["order_no"], data["seq"], data["amount"],
             datetime.now().isoformat(sep=" ", timespec="milliseconds")))
        con.commit()
        if con.total_changes == before:
            print("DUP", data["msg_id"])
        os.rename(cur, f"{Q}/done/{name}")
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
