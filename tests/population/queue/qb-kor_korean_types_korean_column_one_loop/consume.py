#!/usr/bin/env python3
# consume.py - 디렉터리 큐 소비자
# 실행: python3 /root/q/consume.py
import os, json, sqlite3, sys

Q = "/root/q"
INBOX = os.path.join(Q, "inbox")
PROC = os.path.join(Q, "processing")
DONE = os.path.join(Q, "done")
ERR = os.path.join(Q, "error")

con = sqlite3.connect(os.path.join(Q, "ledger.db"), timeout=30, isolation_level=None)
# 테이블: msg_id 가 PRIMARY KEY -> 같은 msg_id 두 번 INSERT 하면 IntegrityError (멱등성은 DB가 보장)
con.execute("""
CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT PRIMARY KEY,      -- 멱등키
    order_no     TEXT NOT NULL,         -- 주문번호
    seq          INTEGER NOT NULL,      -- 순서
    amount       NUMERIC NOT NULL,      -- 금액
    원본파일     TEXT,                  -- 어느 파일에서 왔는지
    processed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now', 'localtime'))
)""")

처리 = 중복 = 오류 = 0
while True:
    names = os.listdir(INBOX)
    names = [n for n in names if os.path.isfile(os.path.join(INBOX, n))]
    if not names:
        break  # inbox 가 비면 끝
    for name in names:
        src = os.path.join(INBOX, name)
        cur = os.path.join(PROC, name)
        # 1) processing 으로 먼저 옮기고 (다른 소비자가 이미 가져갔으면 건너뜀)
        try:
            os.rename(src, cur)
        except OSError:
            continue
        # 2) 그 다음에 읽는다
        reason = None
        try:
            with open(cur, "rb") as f:
                msg = json.loads(f.read())
            if type(msg) != dict:
                reason = "parse"          # JSON 이긴 한데 객체가 아님
        except ValueError:
            reason = "parse"
        if reason is None:
            for k in ("msg_id", "order_no", "seq", "amount"):
                if k not in msg or msg[k] is None:   # null 도 누락
                    reason = "missing-field"
                    break
        if reason is not None:
            # 독약 메시지는 error 로 격리 (inbox 로 돌려보내면 무한 루프!)
            os.rename(cur, os.path.join(ERR, name))
            오류 += 1
            print("[오류]", name, reason)
            continue
        # 3) 적재
        try:
            con.execute("INSERT INTO processed (msg_id, order_no, seq, amount, 원본파일) VALUES (?, ?, ?, ?, ?)",
                        (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], name))
            처리 += 1
        except sqlite3.IntegrityError:
            중복 += 1
            print("[중복]", name, msg["msg_id"])
        os.rename(cur, os.path.join(DONE, name))

con.close()
print("적재 %d건, 중복 %d건, 오류 %d건" % (처리, 중복, 오류))
