import os
import sys
import json
import time
import sqlite3
import argparse
import requests
import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_FILE = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

parser = argparse.ArgumentParser()
parser.add_argument("--claim", required=True, help="claim system url, e.g. http://127.0.0.1:9202")
parser.add_argument("--max-seconds", type=float, required=True)
parser.add_argument("--prefetch", type=int, default=5)
args = parser.parse_args()

start_time = time.time()

# sqlite
db = sqlite3.connect(DB_FILE)
cursor = db.cursor()
cursor.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, claim_id TEXT)")
db.commit()

connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
channel = connection.channel()

# make sure the queues exist (same as topology.py)
channel.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
channel.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)
channel.queue_declare(queue="claim.in", durable=True,
                      arguments={"x-dead-letter-exchange": "eai.dlx",
                                 "x-dead-letter-routing-key": "claim.dead"})
channel.queue_declare(queue="claim.dead", durable=True)
channel.queue_bind(exchange="eai.claim", queue="claim.in", routing_key="claim")
channel.queue_bind(exchange="eai.dlx", queue="claim.dead", routing_key="claim.dead")

channel.basic_qos(prefetch_count=args.prefetch)

claims_url = args.claim + "/v1/claims"
if args.claim.endswith("/"):
    claims_url = args.claim + "v1/claims"

print("consumer started")

for method, properties, body in channel.consume("claim.in", inactivity_timeout=1):
    elapsed = time.time() - start_time
    if elapsed >= args.max_seconds:
        print("max seconds reached")
        break

    if method is None:
        print("waiting...")
        continue

    claim = json.loads(body)
    message_id = properties.message_id
    if message_id is None:
        message_id = claim["guid"]

    # did we do this one before?
    cursor.execute("SELECT message_id FROM processed WHERE message_id = ?", (message_id,))
    row = cursor.fetchone()
    if row is not None:
        print("duplicate", message_id, "-> ack")
        channel.basic_ack(delivery_tag=method.delivery_tag)
        continue

    time_left = args.max_seconds - elapsed
    if time_left > 2:
        timeout = 2
    else:
        timeout = time_left

    print("sending", claim["claimId"], "redelivered =", method.redelivered)
    try:
        response = requests.post(claims_url, json=claim, timeout=timeout)
        status = response.status_code
    except requests.exceptions.Timeout:
        print("timeout")
        status = "timeout"
    except requests.exceptions.ConnectionError:
        print("connection error")
        status = "connection error"

    print("result:", status)

    if status == 201:
        cursor.execute("INSERT OR IGNORE INTO processed (message_id, claim_id) VALUES (?, ?)",
                       (message_id, claim.get("claimId")))
        db.commit()
        channel.basic_ack(delivery_tag=method.delivery_tag)
        print("acked")
    elif status == 422:
        channel.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
        print("rejected -> claim.dead")
    elif method.redelivered == True:
        channel.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
        print("failed twice -> claim.dead")
    else:
        channel.basic_nack(delivery_tag=method.delivery_tag, requeue=True)
        print("requeued")

channel.cancel()
connection.close()
db.close()
print("bye")
sys.exit(0)
