#!/usr/bin/env python3
# 4~8단계: consumer.py --claim <청구시스템URL> --max-seconds <초> [--prefetch N]
import argparse
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

주소 = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
기록파일 = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

해석기 = argparse.ArgumentParser()
해석기.add_argument("--claim", required=True)
해석기.add_argument("--max-seconds", type=float, required=True)
해석기.add_argument("--prefetch", type=int, default=5)        # 7단계: 기본 5
인자 = 해석기.parse_args()

마감 = time.monotonic() + 인자.max_seconds

# 8단계: 처리 기록 (SQLite). 소비자를 다시 띄워도 기억한다.
기록 = sqlite3.connect(기록파일)
기록.execute("CREATE TABLE IF NOT EXISTS 처리기록 (message_id TEXT PRIMARY KEY, 시각 REAL)")
기록.commit()


def 이미_처리했나(메시지아이디):
    return 기록.execute("SELECT 1 FROM 처리기록 WHERE message_id = ?", (메시지아이디,)).fetchone() is not None


def 처리_기록(메시지아이디):
    기록.execute("INSERT OR IGNORE INTO 처리기록 VALUES (?, ?)", (메시지아이디, time.time()))
    기록.commit()


def 청구_전송(본문):
    """POST /v1/claims. 상태 코드, 연결 실패·시간 초과면 None."""
    남은시간 = 마감 - time.monotonic()
    요청 = urllib.request.Request(인자.claim.rstrip("/") + "/v1/claims", data=본문, method="POST",
                                headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(요청, timeout=min(5.0, max(1.0, 남은시간))) as 응답:
            return 응답.status
    except urllib.error.HTTPError as 오류:
        return 오류.code
    except Exception as 오류:       # 연결 실패·시간 초과
        print("일시 오류:", repr(오류), file=sys.stderr)
        return None


연결 = pika.BlockingConnection(pika.URLParameters(주소))
채널 = 연결.channel()
채널.basic_qos(prefetch_count=인자.prefetch)     # 소비를 시작하기 전에

# 소비는 for m, props, body in ch.consume("claim.in", inactivity_timeout=0.5): (쉬는 동안 m 이 None)
for m, props, body in 채널.consume("claim.in", inactivity_timeout=0.5):
    if time.monotonic() >= 마감:       # --max-seconds 가 지나면 빠져나와 연결을 닫는다
        break
    if m is None:
        continue
    꼬리표 = m.delivery_tag
    메시지아이디 = props.message_id

    # "기록과 ack 사이에 죽어도 다음에 온 같은 메시지는 기록 덕분에 걸러집니다"
    # -> 같은 메시지가 다시 오는 것은 재배달(redelivered)일 때이므로 그때 기록을 본다.
    if m.redelivered and 메시지아이디 and 이미_처리했나(메시지아이디):
        채널.basic_ack(꼬리표)       # 청구 시스템을 부르지 않고 ack 만
        continue

    상태 = 청구_전송(body)
    if 상태 == 201:
        if 메시지아이디:
            처리_기록(메시지아이디)   # 처리에 성공하면 기록하고
        채널.basic_ack(꼬리표)         # ack 한다
    elif 상태 == 422:
        채널.basic_reject(꼬리표, requeue=False)     # 5단계: 업무 거절은 DLX 로
    elif m.redelivered:
        채널.basic_reject(꼬리표, requeue=False)     # 6단계: 재배달인데 또 실패 -> DLX
    else:
        채널.basic_nack(꼬리표, requeue=True)        # 한 번 되돌린다

연결.close()      # ack 안 한 것은 브로커가 되돌린다
기록.close()
