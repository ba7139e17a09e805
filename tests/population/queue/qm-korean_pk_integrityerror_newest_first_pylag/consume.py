#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""파일 큐 소비자.

- inbox 의 파일을 하나씩 processing 으로 옮긴 뒤(os.rename) 읽는다.
- 최근 파일(이름 역순)부터 처리한다. 순서는 과제에서 정하지 않았으므로 자유.
- 멱등성: msg_id PRIMARY KEY. 그냥 INSERT 하고 IntegrityError 가 나면 중복으로 본다.
- 실행이 끝나면 dup.txt, error.csv 를 이번 실행 결과로 다시 쓴다.
"""
import json
import os
import sqlite3
import sys
from datetime import datetime, timedelta, timezone

큐 = "/root/q"
받은편지함 = os.path.join(큐, "inbox")
처리중 = os.path.join(큐, "processing")
완료 = os.path.join(큐, "done")
오류 = os.path.join(큐, "error")
DB경로 = os.path.join(큐, "ledger.db")
필수필드 = ["msg_id", "order_no", "seq", "amount"]
KST = timezone(timedelta(hours=9))


def 테이블_준비(conn):
    conn.execute(
        """
        CREATE TABLE IF NOT EXISTS processed (
            msg_id       TEXT PRIMARY KEY,
            order_no     TEXT,
            seq          INTEGER,
            amount       REAL,
            processed_at TEXT
        )
        """
    )
    conn.commit()


def 값(v):
    # dict/list 는 sqlite 에 바로 못 넣으니 문자열로
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False)
    return v


def 검사(경로):
    """정상이면 (메시지, None), 아니면 (None, 사유)"""
    with open(경로, "rb") as f:
        내용 = f.read()
    try:
        메시지 = json.loads(내용.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, "parse"
    if not isinstance(메시지, dict):
        return None, "parse"  # 배열, 문자열, 숫자 등은 메시지가 아님
    for 필드 in 필수필드:
        if 메시지.get(필드) is None:  # 없거나 null
            return None, "missing-field"
    return 메시지, None


def main():
    for 폴더 in (받은편지함, 처리중, 완료, 오류):
        os.makedirs(폴더, exist_ok=True)
    conn = sqlite3.connect(DB경로, timeout=30)
    테이블_준비(conn)

    중복 = set()
    실패 = {}
    건수 = {"완료": 0, "중복": 0, "오류": 0}

    for 이름 in sorted(os.listdir(받은편지함), reverse=True):
        원본 = os.path.join(받은편지함, 이름)
        처리중_경로 = os.path.join(처리중, 이름)
        try:
            os.rename(원본, 처리중_경로)  # 여기서 선점. 다른 소비자가 먼저 가져갔으면 실패
        except FileNotFoundError:
            continue
        if not os.path.isfile(처리중_경로):
            continue

        메시지, 사유 = 검사(처리중_경로)
        if 사유:
            os.rename(처리중_경로, os.path.join(오류, 이름))
            실패[이름] = 사유
            건수["오류"] += 1
            print(f"[오류] {이름}: {사유}")
            continue

        지금 = datetime.now(KST).isoformat(timespec="seconds")
        try:
            conn.execute(
                "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) VALUES (?, ?, ?, ?, ?)",
                (값(메시지["msg_id"]), 값(메시지["order_no"]), 값(메시지["seq"]), 값(메시지["amount"]), 지금),
            )
            conn.commit()
            건수["완료"] += 1
            print(f"[완료] {이름}: {메시지['msg_id']}")
        except sqlite3.IntegrityError:
            conn.rollback()  # 트랜잭션을 닫아야 다른 소비자가 안 막힘
            중복.add(str(메시지["msg_id"]))
            건수["중복"] += 1
            print(f"[중복 무시] {이름}: {메시지['msg_id']}")
        os.rename(처리중_경로, os.path.join(완료, 이름))

    conn.close()

    with open(os.path.join(큐, "dup.txt"), "w", encoding="utf-8") as f:
        for msg_id in sorted(중복):
            f.write(msg_id + "\n")
    with open(os.path.join(큐, "error.csv"), "w", encoding="utf-8") as f:
        f.write("file,reason\n")
        for 이름 in sorted(실패):
            f.write(f"{이름},{실패[이름]}\n")

    print(f"끝: 완료 {건수['완료']}건, 중복 {건수['중복']}건, 오류 {건수['오류']}건")
    return 0


if __name__ == "__main__":
    sys.exit(main())
