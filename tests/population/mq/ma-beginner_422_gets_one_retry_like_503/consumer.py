import os
import sys
import time
import sqlite3
import argparse
import requests
import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

parser = argparse.ArgumentParser()
parser.add_argument("--claim", required=True)
parser.add_argument("--max-seconds", type=float, required=True)
parser.add_argument("--prefetch", type=int, default=5)
args = parser.parse_args()

start = time.time()
end = start + args.max_seconds

db = sqlite3.connect(DB_PATH)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, processed_at REAL)")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)

for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.time() >= end:
        print("time up")
        break
    if method is None:
        continue

    msg_id = props.message_id

    cur = db.execute("SELECT * FROM processed WHERE message_id = ?", (msg_id,))
    if cur.fetchone() is not None:
        print(msg_id, "duplicate -> ack")
        ch.basic_ack(delivery_tag=method.delivery_tag)
        continue

    timeout = end - time.time()
    if timeout > 3:
        timeout = 3
    if timeout < 0.1:
        timeout = 0.1

    ok = False
    try:
        resp = requests.post(args.claim + "/v1/claims", data=body,
                             headers={"Content-Type": "application/json"}, timeout=timeout)
        print(msg_id, "status", resp.status_code)
        if resp.status_code == 201:
            ok = True
    except requests.exceptions.RequestException as e:
        print(msg_id, "error", e)

    if ok:
        db.execute("INSERT INTO processed VALUES (?, ?)", (msg_id, time.time()))
        db.commit()
        ch.basic_ack(delivery_tag=method.delivery_tag)
        print(msg_id, "acked")
    else:
        # failed: try one more time, if it was already retried -> DLX
        if method.redelivered:
            ch.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
            print(msg_id, "to DLX")
        else:
            ch.basic_nack(delivery_tag=method.delivery_tag, requeue=True)
            print(msg_id, "requeued")

ch.cancel()
conn.close()
db.close()
