#!/usr/bin/env python3
# 큐 소비자
# 필수 필드 검사는 DB 제약(NOT NULL)에 맡긴다. 앱 조건문보다 DB 가 마지막 방어선이니까.
import json
import os
import sqlite3
from datetime import datetime

Q = "/root/q"
INBOX = Q + "/inbox"
PROC = Q + "/processing"
DONE = Q + "/done"
ERR = Q + "/error"

db = sqlite3.connect(Q + "/ledger.db", timeout=30)
db.execute("""
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT    NOT NULL PRIMARY KEY,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    processed_at TEXT    NOT NULL
)""")
db.commit()


def move(src, folder, name):
    os.rename(src, os.path.join(folder, name))


for name in sorted(os.listdir(INBOX)):
    src = os.path.join(INBOX, name)
    p = os.path.join(PROC, name)
    try:
        os.rename(src, p)  # processing 으로 먼저 옮기고
    except FileNotFoundError:
        continue  # 다른 소비자가 가져감

    # 그 다음에 읽는다
    try:
        with open(p, "rb") as f:
            m = json.loads(f.read())
        if not isinstance(m, dict):
            raise ValueError("not an object")
    except ValueError:
        move(p, ERR, name)
        print("error(parse):", name)
        continue

    try:
        cur = db.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?,?,?,?,?)",
            (m.get("msg_id"), m.get("order_no"), m.get("seq"), m.get("amount"),
             datetime.now().strftime("%Y-%m-%d %H:%M:%S")),
        )
        db.commit()
    except sqlite3.IntegrityError:
        # 필드 누락 -> NOT NULL 위반
        db.rollback()
        move(p, ERR, name)
        print("error(missing-field):", name)
        continue

    if cur.rowcount == 0:
        print("dup:", m.get("msg_id"), name)
    else:
        print("ok:", name)
    move(p, DONE, name)

db.close()
