# consumer.py --claim URL --max-seconds S [--prefetch N]
#
# Main thread: the blocking consume generator (pika is not thread-safe, so every ack/nack/
# reject happens here). Worker threads: only the HTTP POSTs (urllib), up to --prefetch at once.
# basic_qos(prefetch) caps how many deliveries we hold unacked.
import argparse
import concurrent.futures as cf
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 5.0
CUT = "cut"        # our own deadline ended the call: not a failure


def post(url, body, timeout, hard_timeout):
    req = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except Exception as e:
        reason = getattr(e, "reason", e)
        if isinstance(reason, TimeoutError) and timeout < hard_timeout:
            return CUT
        return None        # refused / reset / timed out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", required=True, type=float)
    ap.add_argument("--prefetch", default=5, type=int)
    a = ap.parse_args()
    deadline = time.monotonic() + a.max_seconds
    url = a.claim.rstrip("/") + "/v1/claims"

    db = sqlite3.connect(DB_PATH)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, done_at REAL NOT NULL)")
    db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)
    pool = cf.ThreadPoolExecutor(max_workers=max(1, a.prefetch))

    running = {}       # future -> (method, props)
    in_flight = set()  # message_ids being POSTed right now
    parked = []        # same message_id as one in flight: decided when that one finishes
    stopping = False

    def seen(mid):
        return db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None

    def start(method, props, body):
        mid = props.message_id
        if mid and seen(mid):
            ch.basic_ack(method.delivery_tag)
            return
        if mid and mid in in_flight:
            parked.append((method, props, body))
            return
        if mid:
            in_flight.add(mid)
        left = deadline - time.monotonic()
        fut = pool.submit(post, url, body, max(0.05, min(HTTP_TIMEOUT, left)), HTTP_TIMEOUT)
        running[fut] = (method, props)

    def finish(fut):
        method, props = running.pop(fut)
        mid = props.message_id
        in_flight.discard(mid)
        status = fut.result()
        tag = method.delivery_tag
        if status == CUT:
            return                                   # left unacked; returned on close
        if status == 201:
            if mid:
                db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
                db.commit()
            ch.basic_ack(tag)
        elif status == 422:
            ch.basic_reject(tag, requeue=False)
        elif method.redelivered:
            ch.basic_reject(tag, requeue=False)
        else:
            ch.basic_nack(tag, requeue=True)
        if mid:
            for item in [p for p in parked if p[1].message_id == mid]:
                parked.remove(item)
                if not stopping:
                    start(*item)

    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.05):
        for fut in [f for f in running if f.done()]:
            finish(fut)
        if time.monotonic() >= deadline:
            break
        if method is not None:
            start(method, props, body)

    # deadline: take nothing new, let the calls in progress end (their timeouts end at the
    # deadline), settle them, and give everything else back
    stopping = True
    for fut in cf.as_completed(list(running)):
        finish(fut)
    pool.shutdown(wait=True)
    ch.cancel()
    conn.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
