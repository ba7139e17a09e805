"""Claim consumer.

The dedup table and the HTTP call share ONE SQLite transaction per message:

    BEGIN IMMEDIATE                  -- take the write lock first
    SELECT ... WHERE message_id = ?  -- already done? -> COMMIT (nothing changed), ack
    POST /v1/claims
    201 -> INSERT, COMMIT, then ack
    else -> ROLLBACK, then reject / nack

If the process dies anywhere before COMMIT, SQLite rolls the open transaction back on the next
open (hot journal), so a row exists if and only if a 201 was seen and committed.
"""
import argparse
import os
import sqlite3
import sys
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
deadline = time.monotonic() + args.max_seconds

db = sqlite3.connect(db_path, isolation_level=None, timeout=10)  # autocommit: I write BEGIN myself
db.execute("CREATE TABLE IF NOT EXISTS processed_messages ("
           "message_id TEXT NOT NULL UNIQUE, claim_status INTEGER, recorded REAL)")

connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()
channel.basic_qos(prefetch_count=args.prefetch)


def call_claim_system(body):
    remaining = deadline - time.monotonic()
    try:
        r = requests.post(args.claim.rstrip("/") + "/v1/claims", data=body,
                          headers={"Content-Type": "application/json"},
                          timeout=max(0.3, min(3.0, remaining)))
        return r.status_code
    except requests.exceptions.RequestException as e:   # refused / timeout / reset
        print("claim system:", type(e).__name__, file=sys.stderr)
        return None


def handle(method, props, body):
    tag = method.delivery_tag
    mid = props.message_id or ""
    db.execute("BEGIN IMMEDIATE")
    try:
        if mid and db.execute("SELECT 1 FROM processed_messages WHERE message_id = ?", (mid,)).fetchone():
            db.execute("COMMIT")
            channel.basic_ack(tag)
            return "duplicate"
        status = call_claim_system(body)
        if status == 201:
            if mid:
                db.execute("INSERT INTO processed_messages VALUES (?, ?, ?)", (mid, status, time.time()))
            db.execute("COMMIT")
            channel.basic_ack(tag)
            return "ok"
        db.execute("ROLLBACK")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    if status == 422:
        channel.basic_reject(tag, requeue=False)
        return "rejected"
    if method.redelivered:
        channel.basic_reject(tag, requeue=False)
        return "dead after retry"
    channel.basic_nack(tag, requeue=True)
    return "requeued"


for method, props, body in channel.consume("claim.in", inactivity_timeout=0.5):
    if time.monotonic() > deadline:
        break
    if method is None:
        continue
    print(props.message_id, handle(method, props, body))

channel.cancel()
connection.close()
db.close()
