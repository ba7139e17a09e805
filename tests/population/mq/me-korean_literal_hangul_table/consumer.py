# 4~8단계: consumer.py --claim <청구시스템URL> --max-seconds <초> [--prefetch N]
import argparse
import os
import sqlite3
import time

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

p = argparse.ArgumentParser(description="청구 소비자")
p.add_argument("--claim", required=True, help="청구 시스템 URL")
p.add_argument("--max-seconds", type=float, required=True, help="이 시간이 지나면 끝난다")
p.add_argument("--prefetch", type=int, default=5, help="basic_qos prefetch_count (기본 5)")
인자 = p.parse_args()

끝 = time.monotonic() + 인자.max_seconds
주소 = 인자.claim.rstrip("/") + "/v1/claims"

# 8단계: 처리 기록을 SQLite(EAI_MQ_DB)에 남긴다 — 소비자를 다시 띄워도 기억한다.
기록 = sqlite3.connect(DB)
기록.execute("CREATE TABLE IF NOT EXISTS 처리기록 (메시지아이디 TEXT PRIMARY KEY, 처리시각 REAL)")
기록.commit()


def 처리했나(mid):
    return 기록.execute("SELECT 1 FROM 처리기록 WHERE 메시지아이디 = ?", (mid,)).fetchone() is not None


def 기록하기(mid):
    기록.execute("INSERT OR IGNORE INTO 처리기록 VALUES (?, ?)", (mid, time.time()))
    기록.commit()  # 기록한 다음에 ack 한다


def 넘기기(본문):
    """청구 시스템에 POST. 응답 코드를 돌려준다. 연결 실패·시간 초과면 None."""
    남은 = 끝 - time.monotonic()
    try:
        r = requests.post(
            주소,
            data=본문,
            headers={"Content-Type": "application/json"},
            timeout=max(0.2, min(5.0, 남은)),
        )
        return r.status_code
    except requests.exceptions.ConnectionError as e:
        print("연결 실패:", e)
        return None
    except requests.exceptions.Timeout as e:
        print("시간 초과:", e)
        return None


연결 = pika.BlockingConnection(pika.URLParameters(URL))
ch = 연결.channel()
# 7단계: 소비를 시작하기 전에 basic_qos
ch.basic_qos(prefetch_count=인자.prefetch)

# 소비는 for m, props, body in ch.consume("claim.in", inactivity_timeout=0.5): (쉬는 동안 m 이 None)
for m, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.monotonic() >= 끝:
        break  # --max-seconds 가 지나면 빠져나와 연결을 닫는다 — ack 안 한 것은 브로커가 되돌린다
    if m is None:
        continue

    mid = props.message_id
    # 8단계: 이미 처리한 message_id 는 청구 시스템을 부르지 않고 ack 만 한다
    if mid is not None and 처리했나(mid):
        print("이미 처리함:", mid)
        ch.basic_ack(m.delivery_tag)
        continue

    코드 = 넘기기(body)
    print(mid, "->", 코드, "(재배달)" if m.redelivered else "")

    if 코드 == 201:
        # 4단계: 201 이면 그때 ack 한다(수동 ack)
        if mid is not None:
            기록하기(mid)
        ch.basic_ack(m.delivery_tag)
    elif 코드 == 422:
        # 5단계: 업무 거절(422, 서류 미비)은 되돌리지 않고 reject(requeue=False) 로 DLX 에 보낸다
        ch.basic_reject(m.delivery_tag, requeue=False)
    elif 코드 is None or 코드 == 503:
        # 6단계: 일시 오류는 한 번 되돌리고, 재배달된(redelivered) 메시지가 또 실패하면 DLX 로
        if m.redelivered:
            ch.basic_reject(m.delivery_tag, requeue=False)
        else:
            ch.basic_nack(m.delivery_tag, requeue=True)
    else:
        # 4단계: 그 밖의 결과는 일단 되돌린다(nack, requeue)
        ch.basic_nack(m.delivery_tag, requeue=True)

ch.cancel()
연결.close()
기록.close()
