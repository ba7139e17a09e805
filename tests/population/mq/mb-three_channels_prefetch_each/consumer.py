#!/usr/bin/env python3
"""Parallel claim consumer.

Several channels consume claim.in on one connection; each delivery's POST runs in a worker
thread; the outcome (record + ack/nack/reject) is executed on the connection thread via
connection.add_callback_threadsafe, since pika channels must not be used from other threads.
"""
import argparse
import functools
import os
import sqlite3
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pika
import requests

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5, help="basic_qos prefetch per consumer")
ap.add_argument("--channels", type=int, default=3, help="parallel consumer channels")
args = ap.parse_args()

URL = args.claim.rstrip("/") + "/v1/claims"
db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, ts REAL)")
db.commit()

conn = pika.BlockingConnection(pika.URLParameters(
    os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
pool = ThreadPoolExecutor(max_workers=args.prefetch * args.channels)
running = True
pending = set()


def http_post(body):
    try:
        return requests.post(URL, data=body, timeout=4,
                             headers={"Content-Type": "application/json"}).status_code
    except requests.RequestException as e:
        return type(e).__name__


def settle(ch, method, mid, result):           # connection thread
    pending.discard((ch.channel_number, method.delivery_tag))
    if not ch.is_open:
        return
    if result == 201:
        db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
        db.commit()
        ch.basic_ack(method.delivery_tag)
        print(f"ch{ch.channel_number} 201 {mid} ack", flush=True)
    elif result == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
        print(f"ch{ch.channel_number} 422 {mid} -> DLX", flush=True)
    elif method.redelivered:
        ch.basic_reject(method.delivery_tag, requeue=False)
        print(f"ch{ch.channel_number} {result} {mid} redelivered -> DLX", flush=True)
    else:
        ch.basic_nack(method.delivery_tag, requeue=True)
        print(f"ch{ch.channel_number} {result} {mid} -> requeue", flush=True)


def work(ch, method, mid, body):               # worker thread
    result = http_post(body)
    try:
        conn.add_callback_threadsafe(functools.partial(settle, ch, method, mid, result))
    except Exception:
        pass                                   # connection gone: broker requeues


def on_message(ch, method, props, body):       # connection thread
    if not running:
        return
    mid = props.message_id
    if db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
        ch.basic_ack(method.delivery_tag)
        print(f"ch{ch.channel_number} dup {mid} ack", flush=True)
        return
    pending.add((ch.channel_number, method.delivery_tag))
    pool.submit(work, ch, method, mid, body)


for _ in range(args.channels):
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    ch.basic_consume("claim.in", on_message, auto_ack=False)

deadline = time.monotonic() + args.max_seconds
while time.monotonic() < deadline:
    conn.process_data_events(time_limit=0.2)
running = False
until = time.monotonic() + 5
while pending and time.monotonic() < until:
    conn.process_data_events(time_limit=0.1)
pool.shutdown(wait=False, cancel_futures=True)
conn.close()
db.close()
