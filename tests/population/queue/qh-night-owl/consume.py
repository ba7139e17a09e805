#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""큐 소비자 — 새벽 3시 버전

흐름: inbox -> (rename 으로 선점) processing -> 읽고 검사 -> done / error
 - rename 은 같은 파일시스템 안에서 원자적이라 소비자 두 개가 떠도 한 명만 가져감
 - 중복 제거는 DB 의 PRIMARY KEY 가 책임짐 (INSERT OR IGNORE)
 - 파싱 실패는 error/ 로 격리, 절대 inbox 로 안 돌려보냄 (독약 메시지)
"""
import csv
import json
import os
import random
import sqlite3
import time
from pathlib import Path

큐 = Path("/root/q")
받은함 = 큐 / "inbox"
처리중 = 큐 / "processing"
완료 = 큐 / "done"
오류 = 큐 / "error"
원장 = 큐 / "ledger.db"

필수필드 = ("msg_id", "order_no", "seq", "amount")


def 검사(raw: bytes):
    """(메시지, None) 또는 (None, 사유) 를 돌려줌."""
    try:
        msg = json.loads(raw)  # bytes 를 그대로 넘기면 json 이 utf-8 을 알아서 판별
    except (ValueError, RecursionError):
        # JSONDecodeError 도, 깨진 utf-8 의 UnicodeDecodeError 도 ValueError 의 자식
        return None, "parse"
    if not isinstance(msg, dict):
        return None, "parse"  # [1,2] 나 "abc" 도 파싱은 되지만 메시지가 아님
    for 키 in 필수필드:
        # null 은 없는 것으로 본다. 0, "" 은 값이 있는 것!  (not msg.get(키) 쓰면 안 됨)
        if msg.get(키) is None:
            return None, "missing-field"
    return msg, None


def 디비열기():
    con = sqlite3.connect(원장, timeout=30)
    con.execute("""
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       TEXT PRIMARY KEY,
            order_no     TEXT,
            seq          INTEGER,
            amount       INTEGER,     -- 12.5 같은 건 sqlite 가 알아서 REAL 로 둠
            processed_at REAL          -- epoch 초 (time.time()), 엑셀에서 보기 편해서
        )""")
    con.commit()
    return con


def main():
    for d in (받은함, 처리중, 완료, 오류):
        d.mkdir(parents=True, exist_ok=True)
    con = 디비열기()

    중복 = []
    오류목록 = []

    후보 = [p for p in 받은함.iterdir() if p.is_file()]
    # 일부러 섞음: 소비자 두 개가 같은 순서로 돌면 rename 경쟁만 하다 끝나서.
    # 순서 보장은 seq 로 하지 파일 처리 순서로 하는 게 아님 (order-check.sql 참고)
    random.shuffle(후보)

    for 원본 in 후보:
        작업본 = 처리중 / 원본.name
        try:
            os.rename(원본, 작업본)  # 선점! 실패하면 다른 소비자가 먼저 가져간 것
        except FileNotFoundError:
            continue

        msg, 사유 = 검사(작업본.read_bytes())  # processing 으로 옮긴 "뒤에" 읽는다
        if 사유:
            os.rename(작업본, 오류 / 원본.name)
            오류목록.append((원본.name, 사유))
            continue

        with con:  # 커밋이 끝난 다음에야 done 으로 보냄
            cur = con.execute(
                "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], time.time()),
            )
        if cur.rowcount == 0:
            중복.append(str(msg["msg_id"]))
        os.rename(작업본, 완료 / 원본.name)

    con.close()

    # 보고용 파일: 엑셀로 열어보려고 utf-8-sig (BOM) + csv 모듈 기본 줄끝(CRLF)
    with open(큐 / "dup.txt", "w", encoding="utf-8-sig", newline="") as f:
        for m in sorted(set(중복)):
            f.write(m + "\r\n")
    with open(큐 / "error.csv", "w", encoding="utf-8-sig", newline="") as f:
        w = csv.writer(f)
        w.writerow(["file", "reason"])
        for row in sorted(오류목록):
            w.writerow(row)


if __name__ == "__main__":
    main()
