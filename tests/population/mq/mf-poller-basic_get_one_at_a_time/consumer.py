#!/usr/bin/env python3
# consumer.py --claim URL --max-seconds S [--prefetch N]
#
# I poll the queue with basic_get instead of basic_consume: simpler to reason about,
# one message in hand, nothing arrives behind my back. One channel for everything.
import argparse
import http.client
import os
import socket
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
args = ap.parse_args()

start = time.monotonic()
deadline = start + args.max_seconds

db = sqlite3.connect(DB)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at REAL)")
db.commit()


def already(mid):
    if mid is None:
        return False
    return db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone() is not None


def remember(mid):
    if mid is None:
        return
    db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
    db.commit()


def post(body):
    # never wait longer than the time I have left (but give it at least a second)
    left = deadline - time.monotonic()
    timeout = min(5.0, max(1.0, left))
    req = urllib.request.Request(args.claim.rstrip("/") + "/v1/claims", data=body,
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status
    except urllib.error.HTTPError as e:
        return e.code
    except (urllib.error.URLError, http.client.HTTPException, OSError) as e:
        print("claim system unreachable:", e, file=sys.stderr)
        return None


conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)

n = 0
while time.monotonic() < deadline:
    method, props, body = ch.basic_get(queue="claim.in", auto_ack=False)
    if method is None:
        conn.sleep(0.2)   # queue empty, look again shortly
        continue
    n += 1
    tag = method.delivery_tag
    mid = props.message_id

    if already(mid):
        print("duplicate", mid, "-> ack without calling")
        ch.basic_ack(tag)
        continue

    status = post(body)
    if status == 201:
        remember(mid)
        ch.basic_ack(tag)
        print("201", mid)
    elif status == 422:
        ch.basic_reject(tag, requeue=False)
        print("422", mid, "-> DLX")
    elif method.redelivered:
        ch.basic_reject(tag, requeue=False)
        print(status, mid, "failed again after redelivery -> DLX")
    else:
        ch.basic_nack(tag, requeue=True)
        print(status, mid, "-> requeue once")

print("done after", round(time.monotonic() - start, 1), "s,", n, "messages")
conn.close()
db.close()
