#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

Thread layout (as in pika's threaded example):
  main thread   owns the connection, runs process_data_events until the deadline
  worker thread takes deliveries from a queue.Queue, checks the store, POSTs the claim and
                schedules ack / nack / reject on the main thread with add_callback_threadsafe
"""
import argparse
import functools
import json
import os
import queue
import sqlite3
import threading
import time

import pika
import requests

AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
POST_TIMEOUT = 3.0


class Store:
    """Tiny key/value table; a processed message is the key 'msg:<message_id>'."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute("PRAGMA journal_mode=PERSIST")
        self.db.execute("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        self.db.commit()

    def has(self, key):
        return self.db.execute("SELECT 1 FROM kv WHERE k = ?", (key,)).fetchone() is not None

    def put(self, key, value):
        self.db.execute("INSERT OR REPLACE INTO kv (k, v) VALUES (?, ?)", (key, json.dumps(value)))
        self.db.commit()


def worker(conn, ch, jobs, stop, claims_url, deadline):
    store = Store(DB_PATH)  # sqlite objects stay in the thread that made them
    http = requests.Session()

    def later(fn, *a, **kw):
        try:
            conn.add_callback_threadsafe(functools.partial(fn, *a, **kw))
        except pika.exceptions.AMQPError:
            pass  # connection already gone: the broker requeues by itself

    while not stop.is_set():
        try:
            method, props, body = jobs.get(timeout=0.2)
        except queue.Empty:
            continue
        left = deadline - time.monotonic()
        if stop.is_set() or left < 0.3:
            break  # not handled; the close returns it
        tag, mid = method.delivery_tag, props.message_id
        key = f"msg:{mid}"
        if mid and store.has(key):
            print(f"[skip] {mid} already processed", flush=True)
            later(ch.basic_ack, delivery_tag=tag)
            continue
        try:
            status = http.post(claims_url, data=body, headers={"Content-Type": "application/json"},
                               timeout=min(POST_TIMEOUT, left)).status_code
        except requests.RequestException as exc:
            print(f"[error] {mid}: {type(exc).__name__}", flush=True)
            status = None
        if status == 201:
            if mid:
                store.put(key, {"status": 201, "at": time.time()})
            later(ch.basic_ack, delivery_tag=tag)
            print(f"[ok] {mid}", flush=True)
        elif status == 422:
            later(ch.basic_reject, delivery_tag=tag, requeue=False)
            print(f"[dlq] {mid}: 422", flush=True)
        else:
            again = not method.redelivered
            later(ch.basic_nack, delivery_tag=tag, requeue=again)
            print(f"[{'retry' if again else 'dlq'}] {mid}: {status}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()

    deadline = time.monotonic() + a.max_seconds
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)

    jobs = queue.Queue()
    stop = threading.Event()
    ch.basic_consume("claim.in", on_message_callback=lambda c, m, p, b: jobs.put((m, p, b)), auto_ack=False)

    t = threading.Thread(target=worker, daemon=True,
                         args=(conn, ch, jobs, stop, a.claim.rstrip("/") + "/v1/claims", deadline))
    t.start()
    while conn.is_open and t.is_alive():
        left = deadline - time.monotonic()
        if left <= 0:
            break
        conn.process_data_events(time_limit=min(0.25, left))
    stop.set()
    t.join(timeout=POST_TIMEOUT + 1)  # the call in progress is bounded by the deadline anyway
    if conn.is_open:
        conn.process_data_events(time_limit=0)  # run the acks the worker scheduled last
        conn.close()  # unacked deliveries go back to claim.in


if __name__ == "__main__":
    main()
