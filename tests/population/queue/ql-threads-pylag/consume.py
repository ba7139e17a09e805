#!/usr/bin/env python3
"""consume.py - 스레드 여러 개로 inbox 처리 (ThreadPoolExecutor 예제 복붙해서 고침)

claim = os.rename(inbox/x, processing/x). rename 실패하면 다른 스레드/프로세스 것.
중복 = DB UNIQUE 제약 + ON CONFLICT DO NOTHING ... RETURNING (행이 안나오면 중복)
"""
import argparse
import csv
import json
import os
import sqlite3
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

Q = "/root/q"
DB = f"{Q}/ledger.db"
REQ = ("msg_id", "order_no", "seq", "amount")

_local = threading.local()


def conn():
    c = getattr(_local, "c", None)
    if c is None:
        c = sqlite3.connect(DB, timeout=60, isolation_level=None)  # autocommit
        _local.c = c
    return c


def classify(path):
    """None 이면 정상, 아니면 'parse' / 'missing-field'"""
    try:
        with open(path, "rb") as f:
            m = json.loads(f.read().decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return "parse", None
    if type(m) is not dict:
        return "parse", None
    for k in REQ:
        if k not in m or m[k] is None:
            return "missing-field", None
    return None, m


def handle(name):
    src = f"{Q}/inbox/{name}"
    cur = f"{Q}/processing/{name}"
    try:
        os.rename(src, cur)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return "skip"
    reason, m = classify(cur)
    if reason:
        os.rename(cur, f"{Q}/error/{name}")
        return "error"
    rows = conn().execute(
        "INSERT INTO processed(msg_id, order_no, seq, amount, processed_at) "
        "VALUES (?,?,?,?,?) ON CONFLICT(msg_id) DO NOTHING RETURNING msg_id",
        (m["msg_id"], m["order_no"], m["seq"], m["amount"],
         datetime.now().astimezone().isoformat())).fetchall()
    if not rows:
        print(f"[dup] {m['msg_id']} ({name})", file=sys.stderr, flush=True)
    os.rename(cur, f"{Q}/done/{name}")
    return "dup" if not rows else "done"


def write_error_csv():
    # error/ 전체를 다시 분류해서 error.csv 새로 씀 (csv 모듈 기본 줄끝 = CRLF)
    tmp = f"{Q}/.error.csv.{os.getpid()}"
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["file", "reason"])
        for name in sorted(os.listdir(f"{Q}/error")):
            if os.path.isfile(f"{Q}/error/{name}"):
                w.writerow([name, classify(f"{Q}/error/{name}")[0] or "parse"])
    os.replace(tmp, f"{Q}/error.csv")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=4)
    args = ap.parse_args()

    for d in ("inbox", "processing", "done", "error"):
        os.makedirs(f"{Q}/{d}", exist_ok=True)
    c = sqlite3.connect(DB, timeout=60)
    c.execute("CREATE TABLE IF NOT EXISTS processed ("
              " msg_id TEXT NOT NULL UNIQUE,"
              " order_no TEXT, seq INTEGER, amount NUMERIC,"
              " processed_at TEXT NOT NULL)")
    c.commit()
    c.close()

    names = sorted(n for n in os.listdir(f"{Q}/inbox") if os.path.isfile(f"{Q}/inbox/{n}"))
    stats = {}
    with ThreadPoolExecutor(max_workers=max(1, args.workers)) as ex:
        for r in ex.map(handle, names):
            stats[r] = stats.get(r, 0) + 1
    write_error_csv()
    print(" ".join(f"{k}={v}" for k, v in sorted(stats.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
