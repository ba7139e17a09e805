# -*- coding: utf-8 -*-
# 큐 소비자: inbox -> processing (rename 으로 선점) -> done / error
import csv
import fcntl
import glob
import json
import os
import sqlite3
import time

ROOT = os.environ.get("LAB_ROOT", "/root")
Q = os.path.join(ROOT, "q")
필수 = ("msg_id", "order_no", "seq", "amount")


def 판정(path):
    """None 이면 정상, 아니면 (사유, 메시지)"""
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read().decode("utf-8-sig"))
    except (ValueError, UnicodeError):
        return "parse", None
    if not isinstance(data, dict):
        return "parse", None
    for k in 필수:
        if data.get(k) is None:
            return "missing-field", None
    return None, data


def 사유기록(name, reason):
    # error.csv 는 엑셀에서 열어 보려고 utf-8-sig(BOM) + csv 모듈 기본 줄끝(CRLF)
    path = os.path.join(Q, "error.csv")
    with open(path, "a", encoding="utf-8-sig", newline="") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        w = csv.writer(f)
        if f.tell() == 0:
            w.writerow(["file", "reason"])
        w.writerow([name, reason])
        f.flush()
        fcntl.flock(f, fcntl.LOCK_UN)


def main():
    con = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=30)
    with con:
        con.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            "msg_id TEXT NOT NULL UNIQUE, order_no TEXT, seq INTEGER, amount, processed_at TEXT)"
        )
    for src in sorted(glob.glob(os.path.join(Q, "inbox", "*.json"))):
        name = os.path.basename(src)
        work = os.path.join(Q, "processing", name)
        try:
            os.rename(src, work)          # 선점. 다른 소비자가 먼저 가져갔으면 실패
        except FileNotFoundError:
            continue
        reason, msg = 판정(work)
        if reason:
            os.rename(work, os.path.join(Q, "error", name))
            사유기록(name, reason)
            print("ERROR", name, reason)
            continue
        with con:
            con.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (msg_id) DO NOTHING",
                (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"],
                 time.strftime("%Y-%m-%d %H:%M:%S")),
            )
        os.rename(work, os.path.join(Q, "done", name))
        print("DONE ", name)
    con.close()


if __name__ == "__main__":
    main()
