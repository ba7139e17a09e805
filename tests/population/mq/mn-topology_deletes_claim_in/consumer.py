"""Steps 4-8: python3 consumer.py --claim URL --max-seconds S [--prefetch N]"""
import argparse
import os
import sqlite3
import time

import pika
import requests

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
db_path = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

parser = argparse.ArgumentParser()
parser.add_argument("--claim", required=True)
parser.add_argument("--max-seconds", type=float, required=True)
parser.add_argument("--prefetch", type=int, default=5)
args = parser.parse_args()

os.makedirs(os.path.dirname(os.path.abspath(db_path)), exist_ok=True)
db = sqlite3.connect(db_path)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)

end = time.time() + args.max_seconds
for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
    if time.time() > end:
        break
    if method is None:
        continue
    mid = props.message_id
    if db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone():
        ch.basic_ack(method.delivery_tag)
        continue
    try:
        status = requests.post(args.claim.rstrip("/") + "/v1/claims", data=body,
                               headers={"Content-Type": "application/json"},
                               timeout=max(0.5, min(3, end - time.time()))).status_code
    except requests.exceptions.RequestException:
        status = None
    print(mid, status, method.redelivered)
    if status == 201:
        db.execute("INSERT OR IGNORE INTO processed VALUES (?)", (mid,))
        db.commit()
        ch.basic_ack(method.delivery_tag)
    elif status == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
    elif method.redelivered:
        ch.basic_reject(method.delivery_tag, requeue=False)
    else:
        ch.basic_nack(method.delivery_tag, requeue=True)

ch.cancel()
conn.close()
db.close()
