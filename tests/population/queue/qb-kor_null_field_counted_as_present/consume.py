# -*- coding: utf-8 -*-
# 큐 소비자: inbox -> processing -> done / error
# 멱등성: processed.msg_id PRIMARY KEY + INSERT OR IGNORE
import json
import os
import shutil
import sqlite3
import time

기본경로 = "/root/q"
필수 = ["msg_id", "order_no", "seq", "amount"]


def 경로(*parts):
    return os.path.join(기본경로, *parts)


def 로그(줄):
    # 처리로그.txt 에 한 줄씩 남긴다
    with open(경로("처리로그.txt"), "a", encoding="utf-8") as f:
        f.write(time.strftime("%Y-%m-%d %H:%M:%S") + " " + 줄 + "\n")


def db_준비():
    con = sqlite3.connect(경로("ledger.db"), timeout=30)
    con.execute("""
        CREATE TABLE IF NOT EXISTS processed (
            msg_id TEXT PRIMARY KEY,
            order_no TEXT,
            seq INTEGER,
            amount INTEGER,
            processed_at TEXT
        )""")
    con.commit()
    return con


def 판정(파일):
    # 반환: (메시지, 사유)  사유가 None 이면 정상
    try:
        with open(파일, "r", encoding="utf-8") as f:
            msg = json.load(f)
    except (ValueError, UnicodeDecodeError):
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"  # 객체가 아니면 메시지로 볼 수 없음
    for 필드 in 필수:
        if 필드 not in msg:  # 필드가 없으면 누락
            return None, "missing-field"
    return msg, None


def 하나처리(con, 이름):
    처리중 = 경로("processing", 이름)
    try:
        shutil.move(경로("inbox", 이름), 처리중)  # 먼저 processing 으로 옮김
    except FileNotFoundError:
        return  # 다른 소비자가 가져감
    msg, 사유 = 판정(처리중)
    if 사유:
        shutil.move(처리중, 경로("error", 이름))
        로그(f"오류 {이름} {사유}")
        return
    cur = con.execute(
        "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?)",
        (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], time.strftime("%Y-%m-%d %H:%M:%S")),
    )
    con.commit()
    if cur.rowcount == 0:
        로그(f"중복 {이름} {msg['msg_id']}")
    else:
        로그(f"적재 {이름} {msg['msg_id']}")
    shutil.move(처리중, 경로("done", 이름))


def main():
    for d in ("inbox", "processing", "done", "error"):
        os.makedirs(경로(d), exist_ok=True)
    con = db_준비()
    while True:
        목록 = sorted(n for n in os.listdir(경로("inbox")) if os.path.isfile(경로("inbox", n)))
        if not 목록:
            break
        for 이름 in 목록:
            하나처리(con, 이름)
    con.close()
    print("완료")


main()
