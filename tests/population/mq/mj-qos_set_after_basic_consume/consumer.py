#!/usr/bin/env python3
# claim consumer, callback style (basic_consume + process_data_events)
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

parser = argparse.ArgumentParser(description="claim.in -> POST /v1/claims")
parser.add_argument("--claim", required=True, help="claim system base URL")
parser.add_argument("--max-seconds", type=float, required=True)
parser.add_argument("--prefetch", type=int, default=5)
args = parser.parse_args()

deadline = time.monotonic() + args.max_seconds
claims_url = args.claim.rstrip("/") + "/v1/claims"

db = sqlite3.connect(DB_PATH)
db.execute("""CREATE TABLE IF NOT EXISTS processed (
    message_id   TEXT PRIMARY KEY,
    processed_at REAL NOT NULL
)""")
db.commit()


def already_done(message_id):
    return db.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone() is not None


def remember(message_id):
    db.execute("INSERT OR IGNORE INTO processed (message_id, processed_at) VALUES (?, ?)",
               (message_id, time.time()))
    db.commit()


def post_claim(body):
    """returns the HTTP status, or None for a connection failure / timeout"""
    timeout = max(0.5, min(5.0, deadline - time.monotonic()))
    try:
        resp = requests.post(claims_url, data=body,
                             headers={"Content-Type": "application/json"}, timeout=timeout)
    except requests.RequestException as exc:
        print(f"  claim system unreachable: {exc.__class__.__name__}", flush=True)
        return None
    return resp.status_code


def on_message(channel, method, properties, body):
    message_id = properties.message_id
    if message_id and already_done(message_id):
        print(f"{message_id}: already processed, ack only", flush=True)
        channel.basic_ack(method.delivery_tag)
        return

    status = post_claim(body)
    if status == 201:
        if message_id:
            remember(message_id)
        channel.basic_ack(method.delivery_tag)
        print(f"{message_id}: 201 ack", flush=True)
    elif status == 422:
        channel.basic_reject(method.delivery_tag, requeue=False)
        print(f"{message_id}: 422 -> DLQ", flush=True)
    elif method.redelivered:
        channel.basic_reject(method.delivery_tag, requeue=False)
        print(f"{message_id}: {status} on a redelivered message -> DLQ", flush=True)
    else:
        channel.basic_nack(method.delivery_tag, requeue=True)
        print(f"{message_id}: {status} -> requeue (once)", flush=True)


connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
channel = connection.channel()
channel.basic_consume(queue="claim.in", on_message_callback=on_message, auto_ack=False)
channel.basic_qos(prefetch_count=args.prefetch)

while time.monotonic() < deadline:
    connection.process_data_events(time_limit=0.5)

connection.close()
db.close()
print("max-seconds reached, bye")
