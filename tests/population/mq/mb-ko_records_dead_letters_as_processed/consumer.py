# 청구 소비자 - 수동 ack, DLQ, 한 번 재시도, prefetch, 중복 거르기
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests


def 기록소(경로):
    db = sqlite3.connect(경로)
    db.execute("""CREATE TABLE IF NOT EXISTS processed (
                    message_id TEXT PRIMARY KEY,
                    결과 TEXT,
                    시각 TEXT DEFAULT CURRENT_TIMESTAMP)""")
    db.commit()
    return db


def 처리끝(db, mid, 결과):
    # 처리가 끝난 메시지(성공이든 DLQ 로 보냈든)는 기록해 둔다 -> 다시 오면 ack 만
    db.execute("INSERT OR REPLACE INTO processed (message_id, 결과) VALUES (?, ?)", (mid, 결과))
    db.commit()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    a = p.parse_args()

    db = 기록소(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    conn = pika.BlockingConnection(pika.URLParameters(
        os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)

    마감 = time.monotonic() + a.max_seconds
    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() >= 마감:
            break
        if method is None:
            continue
        mid = props.message_id
        tag = method.delivery_tag

        이전 = db.execute("SELECT 결과 FROM processed WHERE message_id = ?", (mid,)).fetchone()
        if 이전:
            print(f"이미 처리된 메시지({이전[0]}) - 청구 시스템 호출 없이 ack: {mid}")
            ch.basic_ack(tag)
            continue

        try:
            코드 = requests.post(a.claim.rstrip("/") + "/v1/claims", data=body, timeout=5,
                               headers={"Content-Type": "application/json"}).status_code
        except requests.RequestException as e:
            print("청구 시스템 호출 실패:", type(e).__name__)
            코드 = None

        if 코드 == 201:
            처리끝(db, mid, "201")
            ch.basic_ack(tag)
            print("성공 201 -> ack:", mid)
        elif 코드 == 422:
            처리끝(db, mid, "422-DLQ")
            ch.basic_reject(tag, requeue=False)
            print("업무 거절 422 -> DLQ:", mid)
        elif method.redelivered:
            처리끝(db, mid, f"{코드}-DLQ")
            ch.basic_reject(tag, requeue=False)
            print(f"재배달 메시지 또 실패({코드}) -> DLQ:", mid)
        else:
            ch.basic_nack(tag, requeue=True)
            print(f"일시 오류({코드}) -> 되돌림:", mid)

    conn.close()
    db.close()
    print("소비자 끝")
    return 0


if __name__ == "__main__":
    sys.exit(main())
