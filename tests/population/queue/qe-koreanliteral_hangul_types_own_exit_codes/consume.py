# -*- coding: utf-8 -*-
# 3단계: 파일 큐 소비자
#  - inbox 의 파일을 하나씩 processing 으로 옮긴 뒤 읽는다
#  - JSON 파싱 실패 또는 필수 필드(msg_id, order_no, seq, amount) 누락이면 error 로 옮긴다
#  - 정상이면 ledger.db 의 processed 테이블에 적재하고 done 으로 옮긴다
#  - 실행이 끝나면 processing 은 비어 있어야 한다
import json
import os
import sqlite3
from datetime import datetime, timedelta, timezone

큐 = "/root/q"
받은편지함 = os.path.join(큐, "inbox")
처리중 = os.path.join(큐, "processing")
완료 = os.path.join(큐, "done")
오류 = os.path.join(큐, "error")
필수_필드 = ("msg_id", "order_no", "seq", "amount")
KST = timezone(timedelta(hours=9))


def 다음_파일():
    """inbox 에서 파일 하나를 고른다 (매번 새로 목록을 본다: 하나씩)."""
    후보 = sorted(이름 for 이름 in os.listdir(받은편지함)
                if os.path.isfile(os.path.join(받은편지함, 이름)))
    return 후보


def 판정(경로):
    """정상이면 (None, 메시지), 아니면 ('parse' 또는 'missing-field', None)"""
    try:
        with open(경로, "rb") as f:
            메시지 = json.loads(f.read().decode("utf-8"))
    except ValueError:          # JSONDecodeError, UnicodeDecodeError 모두 ValueError
        return "parse", None
    if not isinstance(메시지, dict):
        return "parse", None
    for 필드 in 필수_필드:
        if 메시지.get(필드) is None:      # 키가 없거나 null 이면 누락
            return "missing-field", None
    return None, 메시지


def main():
    db = sqlite3.connect(os.path.join(큐, "ledger.db"), timeout=30)
    db.execute("""CREATE TABLE IF NOT EXISTS processed (
                      msg_id       TEXT PRIMARY KEY,
                      order_no     TEXT,
                      seq          INTEGER,
                      amount       INTEGER,
                      processed_at TEXT
                  )""")
    db.commit()

    while True:
        후보 = 다음_파일()
        if not 후보:
            break
        이름 = 후보[0]
        try:
            os.rename(os.path.join(받은편지함, 이름), os.path.join(처리중, 이름))
        except FileNotFoundError:
            continue                     # 다른 소비자가 먼저 가져감 -> 다시 목록 보기
        경로 = os.path.join(처리중, 이름)

        사유, 메시지 = 판정(경로)
        if 사유:
            print("오류", 이름, 사유)
            os.rename(경로, os.path.join(오류, 이름))   # 절대 inbox 로 돌려보내지 않는다 (흔한 실수 1)
            continue

        지금 = datetime.now(KST).strftime("%Y-%m-%d %H:%M:%S%z")
        커서 = db.execute(
            "INSERT INTO processed (msg_id, order_no, seq, amount, processed_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT(msg_id) DO NOTHING",
            (메시지["msg_id"], 메시지["order_no"], 메시지["seq"], 메시지["amount"], 지금))
        db.commit()
        if 커서.rowcount == 0:
            print("중복", 메시지["msg_id"], 이름)
        else:
            print("적재", 메시지["msg_id"], 이름)
        os.rename(경로, os.path.join(완료, 이름))

    db.close()


if __name__ == "__main__":
    main()
