"""claim.in -> claim system, pulled in batches with basic_get.

    python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 60 [--prefetch 5]
"""
import argparse
import os
import socket
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

AMQP = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DBFILE = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
opt = ap.parse_args()
end = time.monotonic() + opt.max_seconds
endpoint = opt.claim.rstrip("/") + "/v1/claims"

db = sqlite3.connect(DBFILE)
db.execute("create table if not exists processed(message_id text primary key, at text default current_timestamp)")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(AMQP))
ch = conn.channel()
# the broker stops handing out messages once N are unacked on this channel
ch.basic_qos(prefetch_count=opt.prefetch)


def send(body):
    """HTTP status, or 0 when the claim system could not be reached / timed out."""
    timeout = max(0.2, min(5.0, end - time.monotonic()))
    req = urllib.request.Request(endpoint, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except (urllib.error.URLError, socket.timeout, OSError) as e:
        print("claim system unreachable:", e, file=sys.stderr)
        return 0


def handle(method, props, body):
    tag = method.delivery_tag
    mid = props.message_id
    if mid and db.execute("select 1 from processed where message_id=?", (mid,)).fetchone():
        ch.basic_ack(tag)
        return "dup"
    status = send(body)
    if status == 201:
        if mid:
            db.execute("insert or ignore into processed(message_id) values (?)", (mid,))
            db.commit()
        ch.basic_ack(tag)
        return "ok"
    if status == 422:
        ch.basic_reject(tag, requeue=False)
        return "422->dlq"
    if method.redelivered:
        ch.basic_reject(tag, requeue=False)
        return f"{status}->dlq (2nd failure)"
    ch.basic_nack(tag, requeue=True)
    return f"{status}->requeue"


done = 0
while time.monotonic() < end:
    # pull a batch: basic_get until the broker has nothing more for us (qos caps it)
    batch = []
    while True:
        method, props, body = ch.basic_get("claim.in", auto_ack=False)
        if method is None:
            break
        batch.append((method, props, body))
    if not batch:
        conn.sleep(0.25)
        continue
    for method, props, body in batch:
        if time.monotonic() >= end:
            break                      # the rest goes back when the connection closes
        print(handle(method, props, body), props.message_id)
        done += 1

conn.close()
db.close()
print(f"handled {done} message(s)")
