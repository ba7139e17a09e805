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
start = time.time()

db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
db.execute("create table if not exists processed (message_id text primary key)")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)
for method, props, body in ch.consume("claim.in"):
    if time.time() - start > args.max_seconds:
        break
    if db.execute("select 1 from processed where message_id=?", (props.message_id,)).fetchone():
        ch.basic_ack(method.delivery_tag)
        continue
    try:
        code = requests.post(args.claim + "/v1/claims", data=body,
                             headers={"Content-Type": "application/json"}, timeout=4).status_code
    except requests.RequestException:
        code = 0
    print(props.message_id, code)
    if code == 201:
        db.execute("insert into processed values (?)", (props.message_id,))
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
