#!/usr/bin/env python3
import argparse
import os
import socket
import sqlite3
import time
import urllib.error
import urllib.request

import pika

parser = argparse.ArgumentParser()
parser.add_argument("--claim", required=True)
parser.add_argument("--max-seconds", type=float, required=True)
parser.add_argument("--prefetch", type=int, default=5)
args = parser.parse_args()

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
TRANSIENT = "transient"

db = sqlite3.connect(DB, isolation_level=None)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at REAL)")


def post(body):
    req = urllib.request.Request(args.claim.rstrip("/") + "/v1/claims", data=body,
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status
    except urllib.error.URLError as e:       # connection refused / DNS
        print("  connection problem:", e)
        return TRANSIENT
    except urllib.error.HTTPError as e:      # 4xx, 5xx
        return e.code
    except (socket.timeout, TimeoutError, ConnectionError) as e:
        print("  timeout/reset:", e)
        return TRANSIENT


connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
channel = connection.channel()
channel.basic_qos(prefetch_count=args.prefetch)
end = time.time() + args.max_seconds

for method, properties, body in channel.consume("claim.in", inactivity_timeout=0.5):
    if time.time() > end:
        break
    if method is None:
        continue
    mid = properties.message_id
    if db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone():
        channel.basic_ack(method.delivery_tag)
        print("duplicate", mid, "acked")
        continue
    result = post(body)
    if result == 201:
        db.execute("BEGIN")
        db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
        db.execute("COMMIT")
        channel.basic_ack(method.delivery_tag)
        print("accepted", mid)
    elif result == 422:
        channel.basic_reject(method.delivery_tag, requeue=False)
        print("rejected (docs missing)", mid)
    elif method.redelivered:
        channel.basic_reject(method.delivery_tag, requeue=False)
        print("failed twice ->  DLX", mid, result)
    else:
        channel.basic_nack(method.delivery_tag, requeue=True)
        print("failed once -> requeue", mid, result)

connection.close()
db.close()
