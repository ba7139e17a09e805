#!/usr/bin/env python3
# consumer.py --claim http://127.0.0.1:9202 --max-seconds 30 [--prefetch 5]
import argparse, os, sqlite3, sys, time
import urllib.error, urllib.request
import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 2.5

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
a = ap.parse_args()

db = sqlite3.connect(DB, isolation_level=None)  # autocommit: every INSERT is durable on its own
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=FULL")
db.execute("CREATE TABLE IF NOT EXISTS dedup (msg_id TEXT NOT NULL, first_seen REAL NOT NULL, CONSTRAINT u_msg UNIQUE (msg_id))")


def log(*x):
    print(time.strftime("%H:%M:%S"), *x, flush=True)


def post(body, timeout):
    """-> HTTP status, or None when the call itself failed (refused, timeout)"""
    req = urllib.request.Request(a.claim.rstrip("/") + "/v1/claims", data=body,
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except (urllib.error.URLError, OSError) as e:  # refused, reset, socket.timeout
        log("call failed:", e)
        return None


conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
ch.basic_qos(prefetch_count=a.prefetch)
end = time.monotonic() + a.max_seconds

for m, props, body in ch.consume("claim.in", auto_ack=False, inactivity_timeout=0.5):
    left = end - time.monotonic()
    if left <= 0:
        break
    if m is None:
        continue
    mid = props.message_id
    if mid and db.execute("SELECT 1 FROM dedup WHERE msg_id=?", (mid,)).fetchone():
        log(mid, "duplicate, ack only")
        ch.basic_ack(m.delivery_tag)
        continue
    code = post(body, min(HTTP_TIMEOUT, max(left, 0.2)))
    if code == 201:
        db.execute("INSERT INTO dedup (msg_id, first_seen) VALUES (?, ?) ON CONFLICT (msg_id) DO NOTHING", (mid, time.time()))
        ch.basic_ack(m.delivery_tag)
        log(mid, "201 ack")
    elif code == 422:
        ch.basic_nack(m.delivery_tag, requeue=False)   # same as reject(requeue=False): goes to eai.dlx
        log(mid, "422 -> dead")
    elif m.redelivered:
        ch.basic_nack(m.delivery_tag, requeue=False)
        log(mid, code, "again after a redelivery -> dead")
    else:
        ch.basic_nack(m.delivery_tag, requeue=True)
        log(mid, code, "-> requeue once")

n = ch.cancel()
log("time up, returned", n, "unacked to the queue")
conn.close()
db.close()
