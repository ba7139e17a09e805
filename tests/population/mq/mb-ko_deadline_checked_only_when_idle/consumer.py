# 청구 소비자
#   python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 30 [--prefetch 5]
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests

인자 = argparse.ArgumentParser(description="claim.in 소비자")
인자.add_argument("--claim", required=True, help="청구 시스템 URL")
인자.add_argument("--max-seconds", type=float, required=True, help="최대 실행 시간(초)")
인자.add_argument("--prefetch", type=int, default=5, help="basic_qos prefetch (기본 5)")
args = 인자.parse_args()

db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, ts REAL)")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(
    os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)

시작 = time.time()
print(f"[시작] prefetch={args.prefetch} 최대 {args.max_seconds}초", flush=True)

for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if method is None:
        # 메시지가 없을 때(쉬는 동안) 시간 확인
        if time.time() - 시작 > args.max_seconds:
            print("[종료] 시간 다 됨", flush=True)
            break
        continue

    mid = props.message_id
    if db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
        ch.basic_ack(method.delivery_tag)
        print("[중복] 이미 처리함, ack:", mid, flush=True)
        continue

    try:
        r = requests.post(args.claim.rstrip("/") + "/v1/claims", data=body, timeout=5,
                          headers={"Content-Type": "application/json"})
        코드 = r.status_code
    except requests.exceptions.RequestException as e:
        print("[오류] 청구 시스템 호출 실패:", e.__class__.__name__, flush=True)
        코드 = None

    if 코드 == 201:
        db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
        db.commit()
        ch.basic_ack(method.delivery_tag)
        print("[완료] 201:", mid, flush=True)
    elif 코드 == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
        print("[거절] 422 서류 미비 -> DLQ:", mid, flush=True)
    elif method.redelivered:
        ch.basic_reject(method.delivery_tag, requeue=False)
        print("[실패] 두 번째 실패 -> DLQ:", mid, 코드, flush=True)
    else:
        ch.basic_nack(method.delivery_tag, requeue=True)
        print("[재시도] 한 번 되돌림:", mid, 코드, flush=True)

conn.close()
db.close()
