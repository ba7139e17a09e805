# -*- coding: utf-8 -*-
# 4~8단계: 소비자
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests

주소 = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
기록파일 = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def 로그(*a):
    print("[소비자]", *a, flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    a = p.parse_args()

    db = sqlite3.connect(기록파일)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")
    db.commit()

    연결 = pika.BlockingConnection(pika.URLParameters(주소))
    ch = 연결.channel()
    ch.basic_qos(prefetch_count=a.prefetch)

    끝 = time.monotonic() + a.max_seconds
    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() > 끝:
            break
        if method is None:
            continue
        mid = props.message_id

        # 8단계: 이미 처리했으면 부르지 않고 ack
        if db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            로그("중복 - ack 만", mid)
            continue

        try:
            상태 = requests.post(a.claim.rstrip("/") + "/v1/claims", data=body, timeout=5,
                               headers={"Content-Type": "application/json"}).status_code
        except requests.RequestException as e:
            상태 = None
            로그("연결 실패/시간 초과", type(e).__name__)

        if 상태 == 201:
            db.execute("INSERT OR IGNORE INTO processed VALUES (?)", (mid,))
            db.commit()                          # 기록하고
            ch.basic_ack(method.delivery_tag)    # ack
            로그("201 완료", mid)
        elif 상태 == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
            로그("422 서류 미비 -> DLQ", mid)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
            로그("재배달 후 또 실패 -> DLQ", mid, 상태)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
            로그("일시 오류 -> 한 번 되돌림", mid, 상태)

    연결.close()
    db.close()
    로그("종료")
    return 0


if __name__ == "__main__":
    sys.exit(main())
