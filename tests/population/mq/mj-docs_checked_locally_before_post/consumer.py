#!/usr/bin/env python3
# 청구 소비자 (claim.in -> 청구 시스템)
import argparse
import json
import os
import sqlite3
import time

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
GIROK_DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

p = argparse.ArgumentParser()
p.add_argument("--claim", required=True)
p.add_argument("--max-seconds", type=float, required=True)
p.add_argument("--prefetch", type=int, default=5)
a = p.parse_args()

kkeut = time.monotonic() + a.max_seconds          # 끝나는 시각
cheonggu_url = a.claim.rstrip("/") + "/v1/claims"

girok = sqlite3.connect(GIROK_DB)
girok.execute("CREATE TABLE IF NOT EXISTS cheori_girok (message_id TEXT PRIMARY KEY, cheori_sigak TEXT)")
girok.commit()


def imi_cheori(mid):
    return girok.execute("SELECT 1 FROM cheori_girok WHERE message_id=?", (mid,)).fetchone() is not None


def girok_namgigi(mid):
    girok.execute("INSERT OR IGNORE INTO cheori_girok VALUES (?, datetime('now'))", (mid,))
    girok.commit()


def seoryu_itna(bonmun):
    # 서류 미비면 청구 시스템이 어차피 422 를 준다 -> 미리 걸러서 불필요한 호출을 줄인다
    try:
        cheonggu = json.loads(bonmun)
    except ValueError:
        return True  # 모르면 그냥 보낸다
    return not isinstance(cheonggu, dict) or bool(cheonggu.get("docs"))


yeongyeol = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
ch = yeongyeol.channel()
ch.basic_qos(prefetch_count=a.prefetch)

for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.monotonic() >= kkeut:
        break
    if method is None:
        continue
    tag, mid = method.delivery_tag, props.message_id

    if mid and imi_cheori(mid):
        print("중복", mid, "-> ack")
        ch.basic_ack(tag)
        continue

    if not seoryu_itna(body):
        print("서류 미비", mid, "-> DLQ (reject, requeue=False)")
        ch.basic_reject(tag, requeue=False)
        continue

    try:
        sangtae = requests.post(cheonggu_url, data=body, headers={"Content-Type": "application/json"},
                                timeout=max(0.5, min(5, kkeut - time.monotonic()))).status_code
    except requests.RequestException as e:
        print("일시 오류", type(e).__name__)
        sangtae = None

    if sangtae == 201:
        if mid:
            girok_namgigi(mid)
        ch.basic_ack(tag)
        print("성공", mid)
    elif sangtae == 422:
        ch.basic_reject(tag, requeue=False)
        print("업무 거절", mid)
    elif method.redelivered:
        ch.basic_reject(tag, requeue=False)
        print("재배달인데 또 실패", sangtae, mid, "-> DLQ")
    else:
        ch.basic_nack(tag, requeue=True)
        print("한 번 되돌림", sangtae, mid)

yeongyeol.close()
girok.close()
