#!/usr/bin/env python3
# 4~8단계: claim.in 소비 -> 청구 시스템 POST
#   201: 처리 기록 남기고 ack
#   422: reject(requeue=False) -> DLX
#   503/연결 실패/시간 초과: 한 번 되돌리고, redelivered 인데 또 실패면 DLX
#   이미 처리한 message_id: 부르지 않고 ack
import argparse
import logging
import os
import sqlite3
import time

import pika
import requests

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
logging.getLogger("pika").setLevel(logging.WARNING)
log = logging.getLogger("consumer")

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def open_db():
    db = sqlite3.connect(DB)
    db.execute(
        "CREATE TABLE IF NOT EXISTS processed ("
        " message_id TEXT PRIMARY KEY,"
        " processed_at REAL NOT NULL)"
    )
    return db


def is_processed(db, message_id):
    cur = db.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,))
    return cur.fetchone() is not None


def mark_processed(db, message_id):
    # 성공했을 때만 기록 (ack 보다 먼저)
    db.execute(
        "INSERT OR IGNORE INTO processed (message_id, processed_at) VALUES (?, ?)",
        (message_id, time.time()),
    )


def call_claim(base, body, timeout):
    """상태 코드, 연결 실패·시간 초과면 None"""
    try:
        r = requests.post(
            base.rstrip("/") + "/v1/claims",
            data=body,
            headers={"Content-Type": "application/json"},
            timeout=timeout,
        )
        return r.status_code
    except (requests.ConnectionError, requests.Timeout) as e:
        log.warning("청구 시스템 호출 실패: %s", type(e).__name__)
        return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--claim", dest="claim_url", required=True)
    p.add_argument("--max-seconds", dest="max_seconds", type=float, required=True)
    p.add_argument("--prefetch", dest="prefetch", type=int, default=5)
    args = p.parse_args()

    db = open_db()
    until = time.monotonic() + args.max_seconds

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)  # 소비 시작 전에

    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        left = until - time.monotonic()
        if left <= 0:
            break
        if method is None:  # 쉬는 중
            continue
        mid = props.message_id
        tag = method.delivery_tag

        if is_processed(db, mid):
            log.info("%s 이미 처리됨 -> ack 만", mid)
            ch.basic_ack(tag)
            continue

        status = call_claim(args.claim_url, body, timeout=max(0.5, min(5.0, left)))
        if status == 201:
            mark_processed(db, mid)
            ch.basic_ack(tag)
            log.info("%s 201 -> ack", mid)
        elif status == 422:
            ch.basic_reject(tag, requeue=False)
            log.info("%s 422 -> DLX", mid)
        elif method.redelivered:
            ch.basic_reject(tag, requeue=False)
            log.info("%s %s (재배달) -> DLX", mid, status)
        else:
            ch.basic_nack(tag, requeue=True)
            log.info("%s %s -> requeue", mid, status)

    ch.cancel()
    conn.close()
    db.close()
    log.info("종료 (%.0f초 경과)", args.max_seconds)


if __name__ == "__main__":
    main()
