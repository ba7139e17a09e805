# 소비자: python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 30 [--prefetch 5]
#
#  201            -> 처리 기록(SQLite) 후 ack
#  422            -> reject(requeue=False) -> DLX
#  503/연결실패/타임아웃 -> 처음이면 nack(requeue=True), redelivered 면 reject(requeue=False)
#  이미 처리한 id -> 호출 없이 ack
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
타임아웃 = 3.0


def 출력(*args):
    print(time.strftime("[%H:%M:%S]"), *args, file=sys.stderr, flush=True)


parser = argparse.ArgumentParser()
parser.add_argument("--claim", required=True)
parser.add_argument("--max-seconds", type=float, required=True)
parser.add_argument("--prefetch", type=int, default=5)
args = parser.parse_args()

끝 = time.monotonic() + args.max_seconds
url = args.claim.rstrip("/") + "/v1/claims"

db = sqlite3.connect(DB, timeout=10)
db.execute("CREATE TABLE IF NOT EXISTS 처리완료 (message_id TEXT PRIMARY KEY, 시각 TEXT)")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)   # consume 전에

for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.monotonic() >= 끝:
        break
    if method is None:
        continue

    mid = props.message_id
    if db.execute("SELECT 1 FROM 처리완료 WHERE message_id = ?", (mid,)).fetchone():
        출력("중복 -> ack", mid)
        ch.basic_ack(method.delivery_tag)
        continue

    남은 = 끝 - time.monotonic()
    try:
        r = requests.post(url, data=body, headers={"Content-Type": "application/json"},
                          timeout=max(0.1, min(타임아웃, 남은)))
        코드 = r.status_code
    except requests.exceptions.RequestException as e:
        코드 = None
        출력("호출 실패", mid, type(e).__name__)
        if time.monotonic() >= 끝:
            ch.basic_nack(method.delivery_tag, requeue=True)   # 시간이 다 돼서 끊긴 것 -> 돌려주고 끝
            break

    if 코드 == 201:
        db.execute("INSERT OR IGNORE INTO 처리완료 VALUES (?, datetime('now'))", (mid,))
        db.commit()
        ch.basic_ack(method.delivery_tag)
        출력("201 ack", mid)
    elif 코드 == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
        출력("422 서류 미비 -> DLQ", mid)
    elif method.redelivered:
        ch.basic_reject(method.delivery_tag, requeue=False)
        출력(코드, "재배달인데 또 실패 -> DLQ", mid)
    else:
        ch.basic_nack(method.delivery_tag, requeue=True)
        출력(코드, "일시 오류 -> 한 번 되돌림", mid)

conn.close()
db.close()
출력("끝")
