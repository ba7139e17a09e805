# -*- coding: utf-8 -*-
# 4~8단계: python3 consumer.py --claim <URL> --max-seconds <초> [--prefetch N]
import argparse
import os
import sqlite3
import time
import urllib.error
import urllib.request

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 3.0  # 초

OK, REJECT, RETRY = "ok", "reject", "retry"


def send_claim(base, body, timeout):
    """청구 시스템 호출 결과를 OK / REJECT / RETRY 로 돌려준다."""
    req = urllib.request.Request(base.rstrip("/") + "/v1/claims", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            code = resp.status
    except urllib.error.HTTPError as e:   # 4xx, 5xx
        code = e.code
    except urllib.error.URLError as e:    # 연결 실패, 시간 초과
        print("  연결 실패:", e.reason)
        return RETRY
    if code == 201:
        return OK
    if code == 422:
        return REJECT
    return RETRY


def open_db():
    os.makedirs(os.path.dirname(os.path.abspath(DB_PATH)), exist_ok=True)
    db = sqlite3.connect(DB_PATH)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")
    db.commit()
    return db


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()

    db = open_db()
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    end = time.monotonic() + args.max_seconds

    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        left = end - time.monotonic()
        if left <= 0:
            break
        if method is None:
            continue
        mid = props.message_id
        if db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)   # 이미 처리함: 부르지 않고 ack 만
            continue
        result = send_claim(args.claim, body, HTTP_TIMEOUT)
        print(mid, result, "재배달" if method.redelivered else "")
        if result == OK:
            db.execute("INSERT OR IGNORE INTO processed VALUES (?)", (mid,))
            db.commit()                          # 기록 먼저, 그 다음 ack
            ch.basic_ack(method.delivery_tag)
        elif result == REJECT:
            ch.basic_reject(method.delivery_tag, requeue=False)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)

    ch.cancel()
    conn.close()
    db.close()


if __name__ == "__main__":
    main()
