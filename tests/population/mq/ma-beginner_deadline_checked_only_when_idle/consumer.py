import os
import sys
import time
import sqlite3
import argparse
import requests
import pika

parser = argparse.ArgumentParser()
parser.add_argument("--claim", required=True)
parser.add_argument("--max-seconds", type=float, required=True)
parser.add_argument("--prefetch", type=int, default=5)
args = parser.parse_args()

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
db_path = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

db = sqlite3.connect(db_path)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")
db.commit()

connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()
channel.basic_qos(prefetch_count=args.prefetch)

start = time.time()

for method, properties, body in channel.consume("claim.in", inactivity_timeout=0.5):
    if method is None:
        # nothing came in for 0.5 s
        if time.time() - start > args.max_seconds:
            print("max seconds passed, stopping")
            break
        continue

    message_id = properties.message_id

    row = db.execute("SELECT message_id FROM processed WHERE message_id = ?", (message_id,)).fetchone()
    if row:
        print("already processed:", message_id)
        channel.basic_ack(delivery_tag=method.delivery_tag)
        continue

    status = 0
    try:
        r = requests.post(args.claim + "/v1/claims", data=body,
                          headers={"Content-Type": "application/json"}, timeout=2)
        status = r.status_code
    except requests.exceptions.Timeout:
        print("timeout")
    except requests.exceptions.ConnectionError:
        print("connection error")

    print(message_id, "->", status)

    if status == 201:
        db.execute("INSERT INTO processed (message_id) VALUES (?)", (message_id,))
        db.commit()
        channel.basic_ack(delivery_tag=method.delivery_tag)
    elif status == 422:
        channel.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
    else:
        if method.redelivered:
            channel.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
        else:
            channel.basic_nack(delivery_tag=method.delivery_tag, requeue=True)

channel.cancel()
connection.close()
db.close()
