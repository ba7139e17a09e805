"""청구 소비자.

python3 consumer.py --claim <청구시스템URL> --max-seconds <초> [--prefetch N]
"""
import argparse
import logging
import os
import sqlite3
import sys
import time

import pika
import requests

logging.basicConfig(level=logging.INFO, format="%(asctime)s [소비자] %(levelname)s %(message)s")
log = logging.getLogger()
logging.getLogger("pika").setLevel(logging.WARNING)  # pika 로그는 너무 많다

HTTP_제한시간 = 4  # 초


def 인자():
    p = argparse.ArgumentParser(description="claim.in 소비자")
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    a = p.parse_args()
    if a.prefetch <= 0:
        p.error("--prefetch 는 1 이상이어야 합니다")
    return a


def 기록소_열기(경로):
    db = sqlite3.connect(경로)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")  # 커밋이 디스크에 닿은 뒤에 ack
    db.execute("CREATE TABLE IF NOT EXISTS done (mid TEXT PRIMARY KEY, at REAL)")
    db.commit()
    return db


def main():
    a = 인자()
    db = 기록소_열기(os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    세션 = requests.Session()
    세션.headers["Content-Type"] = "application/json"
    주소 = a.claim.rstrip("/") + "/v1/claims"
    마감 = time.monotonic() + a.max_seconds
    집계 = {"성공": 0, "중복": 0, "되돌림": 0, "DLQ": 0}

    def 받음(ch, method, props, body):
        if time.monotonic() >= 마감:
            return  # 시간이 다 됐다: ack 하지 않고 둔다 (연결을 닫으면 되돌아간다)
        mid = props.message_id
        if db.execute("SELECT 1 FROM done WHERE mid = ?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            집계["중복"] += 1
            log.info("이미 처리한 메시지 %s - 부르지 않고 ack", mid)
            return
        try:
            상태 = 세션.post(주소, data=body, timeout=HTTP_제한시간).status_code
        except requests.RequestException as e:
            log.warning("청구 시스템 연결 실패/시간 초과: %s", e.__class__.__name__)
            상태 = None
        if 상태 == 201:
            with db:  # 기록 먼저 (커밋)
                db.execute("INSERT OR REPLACE INTO done VALUES (?, ?)", (mid, time.time()))
            ch.basic_ack(method.delivery_tag)  # 그다음 ack
            집계["성공"] += 1
            log.info("201 접수 %s", mid)
        elif 상태 == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
            집계["DLQ"] += 1
            log.warning("422 업무 거절(서류 미비) -> DLQ %s", mid)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
            집계["DLQ"] += 1
            log.warning("재배달 메시지 또 실패(%s) -> DLQ %s", 상태, mid)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
            집계["되돌림"] += 1
            log.warning("일시 오류(%s) -> 한 번 되돌림 %s", 상태, mid)

    try:
        conn = pika.BlockingConnection(
            pika.URLParameters(os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    except pika.exceptions.AMQPConnectionError as e:
        log.error("브로커 연결 실패: %r", e)
        return 1
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)
    ch.basic_consume("claim.in", on_message_callback=받음)
    log.info("소비 시작 (prefetch=%d, %.1f초)", a.prefetch, a.max_seconds)
    while True:
        남은시간 = 마감 - time.monotonic()
        if 남은시간 <= 0:
            break
        conn.process_data_events(time_limit=min(0.5, 남은시간))
    conn.close()
    db.close()
    log.info("종료: %s", 집계)
    return 0


if __name__ == "__main__":
    sys.exit(main())
