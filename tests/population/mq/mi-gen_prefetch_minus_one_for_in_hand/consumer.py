#!/usr/bin/env python3
# claim.in -> POST /v1/claims, with ch.consume() as a generator
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

p = argparse.ArgumentParser()
p.add_argument("--claim", required=True)
p.add_argument("--max-seconds", type=float, required=True)
p.add_argument("--prefetch", type=int, default=5)
args = p.parse_args()

start = time.monotonic()
stop_at = start + args.max_seconds

db = sqlite3.connect(DB)
db.execute("create table if not exists processed (message_id text primary key, ts text)")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
# The generator already holds one message "in hand" while we POST it, and the broker keeps
# pushing up to prefetch_count more behind it. So ask the broker for one less than --prefetch:
# in hand + buffered then never goes above --prefetch.
ch.basic_qos(prefetch_count=max(1, args.prefetch - 1))


def post(body):
    left = stop_at - time.monotonic()
    try:
        r = requests.post(args.claim.rstrip("/") + "/v1/claims", data=body,
                          headers={"Content-Type": "application/json"},
                          timeout=max(0.2, min(3, left)))
        return r.status_code
    except requests.RequestException as e:
        print("  http error:", e.__class__.__name__)
        return None


for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.monotonic() >= stop_at:
        break
    if method is None:
        continue
    mid = props.message_id
    if mid and db.execute("select 1 from processed where message_id=?", (mid,)).fetchone():
        print(mid, "already done -> ack")
        ch.basic_ack(method.delivery_tag)
        continue
    code = post(body)
    print(mid, "->", code, "(redelivered)" if method.redelivered else "")
    if code == 201:
        db.execute("insert or ignore into processed values (?, datetime('now'))", (mid,))
        db.commit()
        ch.basic_ack(method.delivery_tag)
    elif code == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
    elif method.redelivered:
        ch.basic_reject(method.delivery_tag, requeue=False)
    else:
        ch.basic_nack(method.delivery_tag, requeue=True)

ch.cancel()
conn.close()
db.close()
