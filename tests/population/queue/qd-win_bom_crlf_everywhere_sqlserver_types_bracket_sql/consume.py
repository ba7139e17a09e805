# -*- coding: utf-8 -*-
"""
consume.py  -  파일 큐 소비자
  inbox -> processing -> done / error
  실행: python3 consume.py
"""
import json
import sqlite3
import sys
from datetime import datetime
from pathlib import Path

BASE = Path("/root/q")
INBOX = BASE / "inbox"
PROCESSING = BASE / "processing"
DONE = BASE / "done"
ERROR = BASE / "error"
DB_PATH = BASE / "ledger.db"

REQUIRED = ["msg_id", "order_no", "seq", "amount"]

CREATE_SQL = """
CREATE TABLE IF NOT EXISTS processed (
    msg_id        VARCHAR(64)    NOT NULL PRIMARY KEY,
    order_no      VARCHAR(32)    NOT NULL,
    seq           INT            NOT NULL,
    amount        DECIMAL(18, 2) NOT NULL,
    processed_at  DATETIME       NOT NULL
)
"""

INSERT_SQL = """
INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, processed_at)
VALUES (?, ?, ?, ?, ?)
"""


def read_message(path):
    """(메시지 dict, None) 또는 (None, 사유)"""
    try:
        # 메모장에서 저장한 파일은 BOM 이 붙어 있을 수 있어서 utf-8-sig
        text = path.read_text(encoding="utf-8-sig")
        data = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, "parse"
    if not isinstance(data, dict):
        return None, "parse"
    for key in REQUIRED:
        if key not in data or data[key] is None:
            return None, "missing-field"
    return data, None


def main():
    conn = sqlite3.connect(str(DB_PATH), timeout=30)
    conn.execute(CREATE_SQL)
    conn.commit()

    count = {"done": 0, "error": 0, "dup": 0}
    for src in sorted(INBOX.iterdir()):
        if not src.is_file():
            continue
        work = PROCESSING / src.name
        try:
            src.replace(work)          # Windows 에서도 덮어쓰기 되는 replace 사용
        except FileNotFoundError:
            continue                   # 다른 소비자가 먼저 가져감

        msg, reason = read_message(work)
        if msg is None:
            work.replace(ERROR / work.name)
            count["error"] += 1
            print(f"[ERROR] {work.name} ({reason})")
            continue

        now = datetime.now().strftime("%Y-%m-%d %H:%M:%S.%f")
        cur = conn.execute(INSERT_SQL, (msg["msg_id"], msg["order_no"], msg["seq"], msg["amount"], now))
        conn.commit()
        if cur.rowcount == 0:
            count["dup"] += 1
            print(f"[DUP]   {work.name} msg_id={msg['msg_id']}")
        work.replace(DONE / work.name)
        count["done"] += 1

    conn.close()
    print(f"완료: done={count['done']} error={count['error']} (중복 {count['dup']}건)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
