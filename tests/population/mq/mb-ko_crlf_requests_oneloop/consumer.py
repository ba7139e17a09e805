# 청구 소비자: claim.in -> 청구 시스템 POST /v1/claims
#  201 -> 기록 후 ack / 422 -> DLX / 503·연결 실패·시간 초과 -> 한 번 되돌리고 또 실패하면 DLX
import argparse
import json
import os
import sqlite3
import time
from datetime import datetime

import pika
import requests

parser = argparse.ArgumentParser(description="청구 소비자")
parser.add_argument("--claim", required=True, help="청구 시스템 주소 (예: http://127.0.0.1:9202)")
parser.add_argument("--max-seconds", type=float, required=True, help="이 시간(초)이 지나면 끝낸다")
parser.add_argument("--prefetch", type=int, default=5, help="ack 안 한 메시지 최대 개수 (기본 5)")
args = parser.parse_args()
if args.prefetch < 1:
    parser.error("--prefetch 는 1 이상")

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
db_path = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
post_url = args.claim.rstrip("/") + "/v1/claims"

# 처리 기록 (소비자를 다시 띄워도 남는다)
db = sqlite3.connect(db_path)
db.execute("""CREATE TABLE IF NOT EXISTS processed (
    message_id TEXT PRIMARY KEY,
    claim_id   TEXT,
    처리시각    TEXT
)""")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)  # 소비 시작 전에!

end_at = time.time() + args.max_seconds
print(f"소비 시작: prefetch={args.prefetch}, {args.max_seconds}초 동안")

for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.time() >= end_at:
        print("시간 종료")
        break
    if method is None:  # 쉬는 중
        continue

    mid = props.message_id
    tag = method.delivery_tag

    # 이미 처리한 message_id 면 청구 시스템을 부르지 않고 ack 만
    if db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone():
        print("중복 메시지, ack 만 함:", mid)
        ch.basic_ack(delivery_tag=tag)
        continue

    try:
        r = requests.post(post_url, data=body,
                          headers={"Content-Type": "application/json"},
                          timeout=(3, 5))  # (연결, 읽기)
        code = r.status_code
    except requests.exceptions.RequestException as e:
        print("청구 시스템 호출 실패:", type(e).__name__)
        code = None  # 연결 실패·시간 초과

    if code == 201:
        try:
            claim_id = json.loads(body).get("claimId")
        except Exception:
            claim_id = None
        # 성공하면 기록하고 ack
        db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?, ?)",
                   (mid, claim_id, datetime.now().isoformat(timespec="seconds")))
        db.commit()
        ch.basic_ack(delivery_tag=tag)
        print("처리 완료(201):", mid)
    elif code == 422:
        # 업무 거절(서류 미비): 되돌리지 않는다 -> DLX
        ch.basic_reject(delivery_tag=tag, requeue=False)
        print("업무 거절(422) -> DLQ:", mid)
    elif method.redelivered:
        # 이미 한 번 되돌린 메시지가 또 실패
        ch.basic_reject(delivery_tag=tag, requeue=False)
        print(f"재배달인데 또 실패({code}) -> DLQ:", mid)
    else:
        ch.basic_reject(delivery_tag=tag, requeue=True)
        print(f"일시 오류({code}) -> 한 번 되돌림:", mid)

conn.close()  # ack 안 한 것은 브로커가 되돌린다
db.close()
print("소비자 종료")
