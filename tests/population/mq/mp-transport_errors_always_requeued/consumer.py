#!/usr/bin/env python3
# consumer.py — claim.in 소비 → POST /v1/claims
# 201: 기록 후 ack / 422: DLX / 503: 한 번 되돌리고 재배달이면 DLX
import argparse
import os
import sqlite3
import time

import pika
import requests

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
args = ap.parse_args()

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
dbpath = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
db = sqlite3.connect(dbpath)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, done_at TEXT)")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)
end = time.time() + args.max_seconds

for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.time() > end:
        break
    if method is None:
        continue
    mid = props.message_id
    if db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone():
        ch.basic_ack(method.delivery_tag)   # 이미 처리함 → 부르지 않고 ack
        continue
    try:
        r = requests.post(args.claim.rstrip("/") + "/v1/claims", data=body,
                          headers={"Content-Type": "application/json"}, timeout=4)
    except requests.RequestException as e:
        print("청구 시스템 호출 실패:", e)
        ch.basic_nack(method.delivery_tag, requeue=True)   # 나중에 다시
        continue

    if r.status_code == 201:
        db.execute("INSERT INTO processed VALUES (?, datetime('now'))", (mid,))
        db.commit()
        ch.basic_ack(method.delivery_tag)
    elif r.status_code == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
    elif method.redelivered:
        ch.basic_reject(method.delivery_tag, requeue=False)
    else:
        ch.basic_nack(method.delivery_tag, requeue=True)

conn.close()
