#!/usr/bin/env python3
# consume.py - 배치 방식: inbox 에서 최대 BATCH 개를 processing 으로 먼저 옮기고(claim)
#              그 배치를 한 트랜잭션으로 적재한 뒤 done/error 로 보냄. inbox 빌 때까지 반복.
import json
import os
import sqlite3
import sys
import time

ROOT = "/root/q"
BATCH = 50
KEYS = ("msg_id", "order_no", "seq", "amount")


def p(*parts):
    return os.path.join(ROOT, *parts)


def claim_batch():
    got = []
    with os.scandir(p("inbox")) as it:
        names = sorted(e.name for e in it if e.is_file())
    for n in names:
        try:
            os.rename(p("inbox", n), p("processing", n))
        except FileNotFoundError:
            continue            # 다른 consumer 가 먼저 가져감
        got.append(n)
        if len(got) >= BATCH:
            break
    return got


def check(n):
    try:
        with open(p("processing", n), "rb") as f:
            m = json.loads(f.read())
    except ValueError:          # JSONDecodeError / UnicodeDecodeError
        return "parse", None
    if not isinstance(m, dict):
        return "parse", None
    for k in KEYS:
        if m.get(k) is None:
            return "missing-field", None
    return None, m


def main():
    for d in ("inbox", "processing", "done", "error"):
        os.makedirs(p(d), exist_ok=True)
    con = sqlite3.connect(p("ledger.db"), timeout=60)
    con.execute("CREATE TABLE IF NOT EXISTS processed ("
                "msg_id TEXT PRIMARY KEY, order_no TEXT, seq INTEGER, amount INTEGER, "
                "processed_at TEXT NOT NULL)")
    con.commit()
    while True:
        batch = claim_batch()
        if not batch:
            break
        dest = {}
        ts = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        with con:                # 배치 단위 트랜잭션
            for n in batch:
                why, m = check(n)
                if why:
                    dest[n] = "error"
                    print(f"error\t{n}\t{why}")
                    continue
                cur = con.execute(
                    "INSERT OR IGNORE INTO processed VALUES (?, ?, ?, ?, ?)",
                    (m["msg_id"], m["order_no"], m["seq"], m["amount"], ts))
                dest[n] = "done"
                print(f"{'dup' if cur.rowcount == 0 else 'ok'}\t{n}\t{m['msg_id']}")
        for n, d in dest.items():
            os.rename(p("processing", n), p(d, n))
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
