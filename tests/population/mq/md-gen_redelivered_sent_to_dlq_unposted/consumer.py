# claim.in 소비자
# python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 60 --prefetch 5
import argparse
import os
import sqlite3
import time

import pika
import requests

p = argparse.ArgumentParser()
p.add_argument("--claim", required=True)
p.add_argument("--max-seconds", type=float, required=True)
p.add_argument("--prefetch", type=int, default=5)
a = p.parse_args()

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

db = sqlite3.connect(DB)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
ch.basic_qos(prefetch_count=a.prefetch)

start = time.time()
for m, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.time() - start > a.max_seconds:
        break
    if m is None:
        continue

    mid = props.message_id

    # 8단계: 이미 처리한 건 부르지 않고 ack 만
    if db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
        ch.basic_ack(m.delivery_tag)
        print("skip (이미 처리)", mid)
        continue

    # 6단계: 재배달된 메시지 = 이미 한 번 실패해서 되돌린 것 -> DLX 로
    if m.redelivered:
        ch.basic_reject(m.delivery_tag, requeue=False)
        print("재배달 -> DLX", mid)
        continue

    try:
        r = requests.post(a.claim.rstrip("/") + "/v1/claims", data=body,
                          headers={"Content-Type": "application/json"}, timeout=3)
        status = r.status_code
    except requests.RequestException as e:
        print("연결 실패/시간 초과", e)
        status = None

    if status == 201:
        db.execute("INSERT OR IGNORE INTO processed VALUES (?)", (mid,))
        db.commit()
        ch.basic_ack(m.delivery_tag)
        print("OK", mid)
    elif status == 422:
        ch.basic_reject(m.delivery_tag, requeue=False)
        print("422 서류 미비 -> DLX", mid)
    else:
        # 일시 오류: 한 번 되돌림 (다시 오면 위에서 redelivered 로 걸러짐)
        ch.basic_nack(m.delivery_tag, requeue=True)
        print("일시 오류", status, "-> 되돌림", mid)

ch.cancel()
conn.close()
