#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]"""
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
CLAIMS_URL = args.claim.rstrip("/") + "/v1/claims"

# SQLite commits are fsyncs; committing every single id is slow under load,
# so ids are committed in batches (and whatever is left when we stop).
COMMIT_EVERY = 20
db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")
db.commit()
uncommitted = 0

http = requests.Session()
params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
conn = pika.BlockingConnection(params)
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)
deadline = time.monotonic() + args.max_seconds


def remember(mid):
    global uncommitted
    db.execute("INSERT OR IGNORE INTO processed (message_id) VALUES (?)", (mid,))
    uncommitted += 1
    if uncommitted >= COMMIT_EVERY:
        db.commit()
        uncommitted = 0


def on_message(ch, method, props, body):
    left = deadline - time.monotonic()
    if left <= 0:
        ch.stop_consuming()  # leave it unacked, it goes back when we close
        return
    mid = props.message_id
    if db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone():
        print("dup", mid, flush=True)
        ch.basic_ack(method.delivery_tag)
        return
    try:
        code = http.post(CLAIMS_URL, data=body, headers={"Content-Type": "application/json"},
                         timeout=min(3, left)).status_code
    except requests.RequestException as e:
        code = type(e).__name__
    print(mid, code, "(redelivered)" if method.redelivered else "", flush=True)
    if code == 201:
        remember(mid)
        ch.basic_ack(method.delivery_tag)
    elif code == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
    elif method.redelivered:
        ch.basic_reject(method.delivery_tag, requeue=False)
    else:
        ch.basic_nack(method.delivery_tag, requeue=True)


ch.basic_consume("claim.in", on_message, auto_ack=False)
conn.call_later(args.max_seconds, ch.stop_consuming)
try:
    ch.start_consuming()
finally:
    db.commit()
    db.close()
    conn.close()
