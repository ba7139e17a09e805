import argparse
import os
import sqlite3
import time

import pika
import requests

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
db_path = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
args = ap.parse_args()

deadline = time.monotonic() + args.max_seconds
endpoint = args.claim.rstrip("/") + "/v1/claims"

db = sqlite3.connect(db_path)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")
db.commit()


def seen(mid):
    return db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None


def remember(mid):
    db.execute("INSERT OR IGNORE INTO processed VALUES (?)", (mid,))
    db.commit()


def post(body):
    left = deadline - time.monotonic()
    try:
        return requests.post(
            endpoint, data=body, headers={"Content-Type": "application/json"}, timeout=max(0.2, min(5, left))
        ).status_code
    except (requests.ConnectionError, requests.Timeout):
        return None


conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)

stats = {"ack": 0, "dead": 0, "requeue": 0, "dup": 0}
for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.monotonic() > deadline:
        break
    if method is None:
        continue
    tag = method.delivery_tag
    mid = props.message_id

    if mid and seen(mid):
        stats["dup"] += 1
        continue  # already done, don't call the claim system again

    status = post(body)
    if status == 201:
        remember(mid)
        ch.basic_ack(tag)
        stats["ack"] += 1
    elif status == 422:
        ch.basic_reject(tag, requeue=False)
        stats["dead"] += 1
    elif status in (None, 503):
        if method.redelivered:
            ch.basic_reject(tag, requeue=False)
            stats["dead"] += 1
        else:
            ch.basic_nack(tag, requeue=True)
            stats["requeue"] += 1
    else:
        ch.basic_nack(tag, requeue=True)
        stats["requeue"] += 1

ch.cancel()
conn.close()
print(stats)
