#!/usr/bin/env python3
# 청구 소비자. 새 메시지와 재배달 메시지를 다른 함수로 처리한다.
#  - on_new:         중복 확인 → POST → 201 기록+ack / 422 DLX / 일시 오류 한 번 되돌림
#  - on_redelivered: 중복 확인 → POST → 201 기록+ack / 그 밖은 전부 DLX (이미 한 번 되돌려짐)
# 기록은 메시지마다 DB 를 열고 닫는다 (WAL, synchronous=FULL) — 죽어도 커밋된 건 남는다.
import argparse
import contextlib
import os
import sqlite3
import time

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

p = argparse.ArgumentParser()
p.add_argument("--claim", required=True)
p.add_argument("--max-seconds", type=float, required=True)
p.add_argument("--prefetch", type=int, default=5)
opt = p.parse_args()
CLAIMS = opt.claim.rstrip("/") + "/v1/claims"


def db():
    c = sqlite3.connect(DB, timeout=10)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("PRAGMA synchronous=FULL")
    return contextlib.closing(c)


with db() as c:
    c.execute("CREATE TABLE IF NOT EXISTS processed_ids (message_id TEXT PRIMARY KEY, at INTEGER)")
    c.commit()


def already(mid):
    with db() as c:
        return c.execute("SELECT 1 FROM processed_ids WHERE message_id=?", (mid,)).fetchone() is not None


def remember(mid):
    with db() as c:
        c.execute("INSERT OR REPLACE INTO processed_ids VALUES (?, ?)", (mid, int(time.time())))
        c.commit()


def call(body):
    try:
        return requests.post(CLAIMS, data=body, timeout=4,
                             headers={"Content-Type": "application/json"}).status_code
    except requests.exceptions.RequestException:
        return 0  # 연결 실패 / 시간 초과


def ok(ch, method, mid):
    remember(mid)
    ch.basic_ack(method.delivery_tag)


def on_new(ch, method, mid, body):
    st = call(body)
    if st == 201:
        ok(ch, method, mid)
    elif st == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
    else:
        ch.basic_nack(method.delivery_tag, requeue=True)  # 한 번만 되돌림


def on_redelivered(ch, method, mid, body):
    st = call(body)
    if st == 201:
        ok(ch, method, mid)
    else:
        ch.basic_reject(method.delivery_tag, requeue=False)  # 또 실패 → DLX


def on_message(ch, method, props, body):
    mid = props.message_id
    if already(mid):
        ch.basic_ack(method.delivery_tag)
        return
    if method.redelivered:
        on_redelivered(ch, method, mid, body)
    else:
        on_new(ch, method, mid, body)


conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
ch = conn.channel()
ch.basic_qos(prefetch_count=opt.prefetch)
ch.basic_consume("claim.in", on_message)
conn.call_later(opt.max_seconds, ch.stop_consuming)
ch.start_consuming()
conn.close()
