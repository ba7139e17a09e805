#!/usr/bin/env python3
# steps 4-8: python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 30 [--prefetch 5]
import argparse
import http.client
import os
import sqlite3
import time
import urllib.parse

import pika

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
args = ap.parse_args()

deadline = time.monotonic() + args.max_seconds
target = urllib.parse.urlsplit(args.claim)

# step 8: processed message_ids
db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
db.execute("CREATE TABLE IF NOT EXISTS processed_ids (message_id TEXT UNIQUE NOT NULL, done REAL)")
db.commit()


def post_claim(body, timeout):
    c = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=timeout)
    try:
        c.request("POST", target.path.rstrip("/") + "/v1/claims", body=body,
                  headers={"Content-Type": "application/json"})
        r = c.getresponse()
        r.read()
        return r.status
    except (OSError, http.client.HTTPException) as e:  # refused / timeout / broken
        print("  transient error:", repr(e), flush=True)
        return None
    finally:
        c.close()


def on_message(ch, method, props, body):
    left = deadline - time.monotonic()
    if left < 0.3:
        return  # out of time, left unacked (returned on close)
    mid = props.message_id
    if db.execute("SELECT 1 FROM processed_ids WHERE message_id=?", (mid,)).fetchone():
        ch.basic_ack(method.delivery_tag)          # step 8: seen -> ack only
        print(mid, "duplicate", flush=True)
        return
    status = post_claim(body, min(4.0, left))
    if status == 201:                              # step 4: ack only after 201
        db.execute("INSERT OR IGNORE INTO processed_ids VALUES (?, ?)", (mid, time.time()))
        db.commit()
        ch.basic_ack(method.delivery_tag)
    elif status == 422:                            # step 5
        ch.basic_reject(method.delivery_tag, requeue=False)
    elif method.redelivered:                       # step 6: second failure
        ch.basic_reject(method.delivery_tag, requeue=False)
    else:                                          # step 6: first failure
        ch.basic_nack(method.delivery_tag, requeue=True)
    print(mid, status, "(redelivered)" if method.redelivered else "", flush=True)


conn = pika.BlockingConnection(pika.URLParameters(
    os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = conn.channel()

# step 4
ch.basic_consume(queue="claim.in", on_message_callback=on_message, auto_ack=False)
# step 7
ch.basic_qos(prefetch_count=args.prefetch)

while time.monotonic() < deadline:
    conn.process_data_events(time_limit=min(0.5, max(0.0, deadline - time.monotonic())))

conn.close()
db.close()
