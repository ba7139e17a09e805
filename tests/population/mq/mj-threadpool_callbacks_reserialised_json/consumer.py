#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

basic_consume callbacks on the connection thread; each delivery is handed to a thread pool
(as many workers as the prefetch), the worker does the dedup lookup, the POST and the record,
and the ack / nack / reject is sent back to the connection thread with
add_callback_threadsafe (pika channels are not thread-safe).
"""
import argparse
import functools
import os
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
args = ap.parse_args()

DEADLINE = time.monotonic() + args.max_seconds
ENDPOINT = args.claim.rstrip("/") + "/v1/claims"

db_lock = threading.Lock()
db = sqlite3.connect(DB_PATH, check_same_thread=False)
db.execute("""CREATE TABLE IF NOT EXISTS processed (
    message_id TEXT PRIMARY KEY,
    http_status INTEGER,
    delivery_tag INTEGER,
    redelivered INTEGER,
    processed_at TEXT DEFAULT (datetime('now'))
)""")
db.commit()

# one lock per message_id, so two copies of the same claim in flight are done one after the other
id_locks = {}
id_locks_guard = threading.Lock()
local = threading.local()


def lock_for(mid):
    with id_locks_guard:
        return id_locks.setdefault(mid, threading.Lock())


def session():
    if not hasattr(local, "s"):
        local.s = requests.Session()
    return local.s


def seen(mid):
    with db_lock:
        return db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None


def record(mid, status, tag, redelivered):
    with db_lock:
        db.execute("INSERT OR IGNORE INTO processed (message_id, http_status, delivery_tag, redelivered)"
                   " VALUES (?,?,?,?)", (mid, status, tag, int(redelivered)))
        db.commit()


def settle(ch, kind, tag):
    if not ch.is_open:
        return  # connection already closed at the deadline: the broker requeued it
    if kind == "ack":
        ch.basic_ack(tag)
    elif kind == "requeue":
        ch.basic_nack(tag, requeue=True)
    else:
        ch.basic_reject(tag, requeue=False)


def work(conn, ch, method, props, body):
    tag, mid = method.delivery_tag, props.message_id
    guard = lock_for(mid) if mid else threading.Lock()
    with guard:
        if mid and seen(mid):
            verdict, status = "ack", "dup"
        else:
            left = DEADLINE - time.monotonic()
            try:
                status = session().post(ENDPOINT, data=body,
                                        headers={"Content-Type": "application/json"},
                                        timeout=max(0.5, min(5.0, left))).status_code
            except requests.RequestException as e:
                status = type(e).__name__
            if status == 201:
                if mid:
                    record(mid, status, tag, method.redelivered)
                verdict = "ack"
            elif status == 422 or method.redelivered:
                verdict = "dead"
            else:
                verdict = "requeue"
    print(f"{mid} {status} -> {verdict}", flush=True)
    try:
        conn.add_callback_threadsafe(functools.partial(settle, ch, verdict, tag))
    except Exception:
        pass  # connection gone: nothing to settle, the broker has it back


pool = ThreadPoolExecutor(max_workers=max(1, args.prefetch))
conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
ch = conn.channel()
ch.basic_qos(prefetch_count=args.prefetch)
ch.basic_consume("claim.in", lambda c, m, p, b: pool.submit(work, conn, c, m, p, b))

while time.monotonic() < DEADLINE:
    conn.process_data_events(time_limit=min(0.25, max(0.0, DEADLINE - time.monotonic())))

ch.stop_consuming()
pool.shutdown(wait=True, cancel_futures=True)
conn.process_data_events(time_limit=0)  # send acks of work that finished just now
conn.close()
db.close()
print("deadline reached")
