#!/usr/bin/env python3
# consume.py [--queue=/root/q] [--db=/root/q/ledger.db] [--procs=3]
# 프로세스 여러 개가 각자 다른 위치부터 inbox 를 훑으면서 rename 으로 claim.
# audit 테이블에 파일별 결과 남김 (dup.txt / error.csv 는 여기서 sqlite3 로 뽑음)
import argparse
import json
import multiprocessing as mp
import os
import sqlite3
import sys
import time

REQUIRED = ("msg_id", "order_no", "seq", "amount")


def opts(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--queue", default="/root/q")
    p.add_argument("--db", default=None)
    p.add_argument("--procs", type=int, default=3)
    o = p.parse_args(argv)
    if o.db is None:
        o.db = os.path.join(o.queue, "ledger.db")
    return o


def init_db(path):
    con = sqlite3.connect(path, timeout=60)
    con.executescript("""
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       VARCHAR(64) PRIMARY KEY,
            order_no     VARCHAR(32),
            seq          INTEGER,
            amount       DECIMAL(15,2),
            currency     CHAR(3),
            created_at   TEXT,
            processed_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
        );
        CREATE TABLE IF NOT EXISTS audit (
            file     TEXT,
            msg_id   TEXT,
            outcome  TEXT,
            pid      INTEGER,
            at       REAL
        );
    """)
    con.close()


def judge(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (ValueError, OSError):
        return "parse", None
    if not isinstance(doc, dict):
        return "parse", None
    if [k for k in REQUIRED if doc.get(k) is None]:
        return "missing-field", doc
    return "ok", doc


def worker(args):
    o, offset, nprocs = args
    q = o.queue
    con = sqlite3.connect(o.db, timeout=60)
    names = sorted(os.listdir(os.path.join(q, "inbox")))
    k = (len(names) * offset) // max(nprocs, 1)
    names = names[k:] + names[:k]          # 프로세스마다 시작점 다르게
    for name in names:
        src = os.path.join(q, "inbox", name)
        mid = os.path.join(q, "processing", name)
        if not os.path.isfile(src):
            continue
        try:
            os.rename(src, mid)
        except OSError:
            continue
        outcome, doc = judge(mid)
        msg_id = doc.get("msg_id") if isinstance(doc, dict) else None
        with con:  # 트랜잭션
            if outcome == "ok":
                cur = con.execute(
                    "INSERT INTO processed (msg_id, order_no, seq, amount, currency, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (doc["msg_id"], doc["order_no"], doc["seq"], doc["amount"],
                     doc.get("currency"), doc.get("created_at")))
                if cur.rowcount == 0:
                    outcome = "dup"
            con.execute("INSERT INTO audit VALUES (?, ?, ?, ?, ?)",
                        (name, None if msg_id is None else str(msg_id), outcome, os.getpid(), time.time()))
        dest = "done" if outcome in ("ok", "dup") else "error"
        os.rename(mid, os.path.join(q, dest, name))
    con.close()
    return 0


def main():
    o = opts()
    for d in ("inbox", "processing", "done", "error"):
        os.makedirs(os.path.join(o.queue, d), exist_ok=True)
    init_db(o.db)
    n = max(1, o.procs)
    with mp.Pool(n) as pool:
        pool.map(worker, [(o, i, n) for i in range(n)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
