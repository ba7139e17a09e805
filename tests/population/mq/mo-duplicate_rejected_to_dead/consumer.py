import argparse
import os
import sqlite3
import time

import pika
import requests

parser = argparse.ArgumentParser()
parser.add_argument("--claim", required=True)
parser.add_argument("--max-seconds", type=float, required=True)
parser.add_argument("--prefetch", type=int, default=5)
args = parser.parse_args()

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
db_path = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
claim_url = args.claim.rstrip("/") + "/v1/claims"

db = sqlite3.connect(db_path)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, ts REAL)")
db.commit()


def already_processed(message_id):
    row = db.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone()
    return row is not None


def mark_processed(message_id):
    db.execute("INSERT OR IGNORE INTO processed (message_id, ts) VALUES (?, ?)", (message_id, time.time()))
    db.commit()


connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()
channel.basic_qos(prefetch_count=args.prefetch)

start = time.monotonic()
for method, props, body in channel.consume("claim.in", inactivity_timeout=0.5):
    left = args.max_seconds - (time.monotonic() - start)
    if left <= 0.2:
        break
    if method is None:
        continue  # idle

    mid = props.message_id
    if already_processed(mid):
        # duplicate: we already handled it, throw this copy away (no requeue, no claim call)
        channel.basic_reject(method.delivery_tag, requeue=False)
        print("duplicate, dropped:", mid)
        continue

    try:
        r = requests.post(claim_url, data=body, headers={"Content-Type": "application/json"},
                          timeout=min(4, left))
        status = r.status_code
    except requests.exceptions.RequestException as e:
        print("claim system error:", e)
        status = None

    if status == 201:
        mark_processed(mid)
        channel.basic_ack(method.delivery_tag)
        print("ok:", mid)
    elif status == 422:
        channel.basic_reject(method.delivery_tag, requeue=False)
        print("rejected (422):", mid)
    elif method.redelivered:
        channel.basic_reject(method.delivery_tag, requeue=False)
        print("failed twice, to DLQ:", mid, status)
    else:
        channel.basic_nack(method.delivery_tag, requeue=True)
        print("failed, requeue once:", mid, status)

channel.cancel()
connection.close()
db.close()
