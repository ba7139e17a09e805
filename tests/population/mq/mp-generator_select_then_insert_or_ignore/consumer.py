#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

claim.in -> POST URL/v1/claims. 201: record + ack. 422: reject to the DLX.
503 / connection failure / timeout: requeue once; if it was already redelivered, DLX.
Already recorded message_id: ack without calling the claim system.
"""
import argparse
import os
import sqlite3
import time

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
args = ap.parse_args()

db = sqlite3.connect(DB)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)

endpoint = args.claim.rstrip("/") + "/v1/claims"
deadline = time.monotonic() + args.max_seconds

for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.monotonic() >= deadline:
        break
    if method is None:
        continue

    mid = props.message_id
    if db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone():
        print("skip (already processed)", mid)
        ch.basic_ack(method.delivery_tag)
        continue

    try:
        resp = requests.post(endpoint, data=body,
                             headers={"Content-Type": "application/json"}, timeout=4)
        status = resp.status_code
    except (requests.ConnectionError, requests.Timeout) as exc:
        print("transient:", type(exc).__name__)
        status = None

    if status == 201:
        db.execute("INSERT OR IGNORE INTO processed (message_id) VALUES (?)", (mid,))
        db.commit()
        ch.basic_ack(method.delivery_tag)
    elif status == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
    elif method.redelivered:
        # already put back once: second failure goes to eai.dlx
        ch.basic_reject(method.delivery_tag, requeue=False)
    else:
        ch.basic_nack(method.delivery_tag, requeue=True)
    print(mid, status, "redelivered" if method.redelivered else "")

ch.cancel()
conn.close()
db.close()
