#!/usr/bin/env python3
# consumer.py — basic_consume 콜백 방식
#   처리 기록 테이블 claim_log: message_id 별 상태(accepted / rejected / retry / dead)를 남긴다.
#   "이미 처리함" 은 status = 'accepted' 인 행만. (DLQ 로 간 건 다시 오면 다시 처리해야 함)
#   재시도 판단은 method.redelivered 로만 한다 (tries 컬럼은 기록용).
import argparse
import os
import sqlite3
import time
from datetime import datetime, timezone

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

SCHEMA = """
CREATE TABLE IF NOT EXISTS claim_log (
    message_id TEXT PRIMARY KEY,
    status     TEXT NOT NULL,
    http       INTEGER,
    tries      INTEGER NOT NULL DEFAULT 0,
    updated    TEXT NOT NULL
)
"""


def now():
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Log:
    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute(SCHEMA)
        self.db.commit()

    def accepted(self, mid):
        row = self.db.execute("SELECT status FROM claim_log WHERE message_id = ?", (mid,)).fetchone()
        return row is not None and row[0] == "accepted"

    def mark(self, mid, status, http):
        self.db.execute(
            """INSERT INTO claim_log (message_id, status, http, tries, updated)
               VALUES (?, ?, ?, 1, ?)
               ON CONFLICT(message_id) DO UPDATE SET
                   status = excluded.status, http = excluded.http,
                   tries = claim_log.tries + 1, updated = excluded.updated""",
            (mid, status, http, now()),
        )
        self.db.commit()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True, help="청구 시스템 URL")
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    opt = ap.parse_args()

    log = Log(DB_PATH)
    http = requests.Session()
    target = opt.claim.rstrip("/") + "/v1/claims"

    def on_message(ch, method, props, body):
        mid = props.message_id
        if log.accepted(mid):
            ch.basic_ack(delivery_tag=method.delivery_tag)  # 부르지 않고 ack 만
            return
        try:
            code = http.post(target, data=body, timeout=(2, 4),
                             headers={"Content-Type": "application/json"}).status_code
        except requests.RequestException:
            code = None  # 연결 실패·시간 초과

        if code == 201:
            log.mark(mid, "accepted", code)          # 기록 먼저
            ch.basic_ack(delivery_tag=method.delivery_tag)  # 그 다음 ack
        elif code == 422:
            log.mark(mid, "rejected", code)
            ch.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
        elif not method.redelivered:
            log.mark(mid, "retry", code)
            ch.basic_nack(delivery_tag=method.delivery_tag, requeue=True)
        else:
            log.mark(mid, "dead", code)
            ch.basic_reject(delivery_tag=method.delivery_tag, requeue=False)

    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=opt.prefetch)
    ch.basic_consume(queue="claim.in", on_message_callback=on_message, auto_ack=False)

    end = time.monotonic() + opt.max_seconds
    while time.monotonic() < end:
        conn.process_data_events(time_limit=min(0.5, max(0.0, end - time.monotonic())))
    conn.close()  # ack 안 한 것은 브로커가 되돌린다


if __name__ == "__main__":
    main()
