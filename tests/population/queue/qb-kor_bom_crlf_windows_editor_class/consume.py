# -*- coding: utf-8 -*-
# 파일 큐 소비자 (consume.py)
# - inbox 의 파일을 하나씩 processing 으로 옮긴 뒤(rename) 읽는다
# - 파싱 실패 / 필수 필드 누락 -> error (절대 inbox 로 되돌리지 않음: 독약 메시지 무한루프 방지)
# - 정상 -> ledger.db processed 테이블에 적재 후 done
# - 중복 제거는 DB 제약(msg_id PRIMARY KEY + INSERT OR IGNORE)으로 한다
import json
import sqlite3
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

KST = timezone(timedelta(hours=9))  # 한국 표준시
필수필드 = ("msg_id", "order_no", "seq", "amount")


class QueueConsumer:
    def __init__(self, base: Path):
        self.base = base
        self.inbox = base / "inbox"
        self.processing = base / "processing"
        self.done = base / "done"
        self.error = base / "error"
        for d in (self.inbox, self.processing, self.done, self.error):
            d.mkdir(parents=True, exist_ok=True)
        self.log = open(base / "consume.log", "a", encoding="utf-8")
        self.db = sqlite3.connect(base / "ledger.db", timeout=30)
        self.db.execute(
            """CREATE TABLE IF NOT EXISTS processed (
                   msg_id TEXT PRIMARY KEY,
                   order_no TEXT,
                   seq INTEGER,
                   amount NUMERIC,
                   currency TEXT,
                   processed_at TEXT
               )"""
        )
        self.db.commit()
        self.통계 = {"정상": 0, "중복": 0, "오류": 0}

    def 기록(self, 메시지: str):
        # 로그는 한 줄씩 (시간 + 내용)
        self.log.write(f"{datetime.now(KST).isoformat(timespec='seconds')} {메시지}\n")
        self.log.flush()

    def 검사(self, path: Path):
        """(메시지, None) 또는 (None, 사유) 를 돌려준다"""
        try:
            data = json.loads(path.read_bytes())
        except ValueError:
            return None, "parse"
        if not isinstance(data, dict):  # 배열/문자열/숫자도 메시지가 아님 -> parse
            return None, "parse"
        for f in 필수필드:
            if data.get(f) is None:  # 키가 없거나 값이 null 이면 누락으로 본다 (0 은 정상값)
                return None, "missing-field"
        return data, None

    def 처리(self, src: Path):
        work = self.processing / src.name
        try:
            src.rename(work)  # 같은 파일시스템 안의 rename = 원자적 이동
        except FileNotFoundError:
            return  # 다른 소비자가 먼저 가져감
        data, 사유 = self.검사(work)
        if 사유:
            work.rename(self.error / src.name)
            self.통계["오류"] += 1
            self.기록(f"오류 {src.name} 사유={사유}")
            return
        cur = self.db.execute(
            "INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount, currency, processed_at) VALUES (?,?,?,?,?,?)",
            (data["msg_id"], data["order_no"], data["seq"], data["amount"], data.get("currency"),
             datetime.now(KST).isoformat()),
        )
        self.db.commit()
        if cur.rowcount == 0:
            self.통계["중복"] += 1
            self.기록(f"중복무시 {src.name} msg_id={data['msg_id']}")
        else:
            self.통계["정상"] += 1
            self.기록(f"적재 {src.name} msg_id={data['msg_id']}")
        work.rename(self.done / src.name)

    def 실행(self):
        while True:
            files = sorted(p for p in self.inbox.iterdir() if p.is_file())
            if not files:
                break
            for p in files:
                self.처리(p)
        print("처리 결과:", self.통계)
        self.db.close()
        self.log.close()


if __name__ == "__main__":
    QueueConsumer(Path("/root/q")).실행()
    sys.exit(0)
