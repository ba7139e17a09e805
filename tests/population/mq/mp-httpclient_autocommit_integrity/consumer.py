#!/usr/bin/env python3
# Step 4-8 consumer. http.client straight, sqlite3 in autocommit mode (every statement is its
# own committed transaction, so the INSERT is on disk before basic_ack is sent).
import argparse
import http.client
import os
import socket
import sqlite3
import time
import urllib.parse

import pika

parser = argparse.ArgumentParser()
parser.add_argument("--claim", required=True)
parser.add_argument("--max-seconds", type=float, required=True)
parser.add_argument("--prefetch", type=int, default=5)
args = parser.parse_args()

target = urllib.parse.urlsplit(args.claim)
db = sqlite3.connect(os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db"), isolation_level=None)
db.execute("CREATE TABLE IF NOT EXISTS processed_messages ("
           " message_id TEXT NOT NULL UNIQUE,"
           " processed_at REAL NOT NULL)")


def is_processed(message_id):
    (n,) = db.execute("SELECT COUNT(*) FROM processed_messages WHERE message_id = ?",
                      (message_id,)).fetchone()
    return n > 0


def mark_processed(message_id):
    try:
        db.execute("INSERT INTO processed_messages (message_id, processed_at) VALUES (?, ?)",
                   (message_id, time.time()))
    except sqlite3.IntegrityError:
        pass  # someone recorded it already; fine, it is processed


def post(body):
    """HTTP status, or None on connection failure / timeout."""
    conn = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=4)
    try:
        conn.request("POST", target.path.rstrip("/") + "/v1/claims", body=body,
                     headers={"Content-Type": "application/json"})
        return conn.getresponse().status
    except (OSError, http.client.HTTPException):  # refused, timeout, reset, bad status line
        return None
    finally:
        conn.close()


mq = pika.BlockingConnection(pika.URLParameters(
    os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = mq.channel()
ch.basic_qos(prefetch_count=args.prefetch)
finish = time.monotonic() + args.max_seconds

for method, properties, body in ch.consume("claim.in", auto_ack=False, inactivity_timeout=0.5):
    if time.monotonic() > finish:
        break
    if not method:
        continue
    tag = method.delivery_tag
    mid = properties.message_id
    if is_processed(mid):
        ch.basic_ack(tag)
        continue
    status = post(body)
    if status == 201:
        mark_processed(mid)
        ch.basic_ack(tag)
    elif status == 422:
        ch.basic_reject(tag, requeue=False)
    else:
        second_time = getattr(method, "redelivered", False)
        if second_time:
            ch.basic_reject(tag, requeue=False)
        else:
            ch.basic_nack(tag, multiple=False, requeue=True)

mq.close()
