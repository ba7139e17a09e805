#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

One thread per delivery for the HTTP call (prefetch caps how many exist at
once); acks go back to the connection thread via add_callback_threadsafe.
"""
import argparse
import os
import sqlite3
import threading
import time

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

db_lock = threading.Lock()
db = sqlite3.connect(DB, check_same_thread=False)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at REAL)")
db.commit()


def is_processed(mid):
    with db_lock:
        return db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None


def mark_processed(mid):
    with db_lock:
        db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
        db.commit()


def handle(conn, ch, method, props, body, claim_url, threads):
    mid = props.message_id
    tag = method.delivery_tag
    if mid and is_processed(mid):
        verdict = "ack"
    else:
        try:
            status = requests.post(claim_url, data=body, timeout=3,
                                   headers={"Content-Type": "application/json"}).status_code
        except requests.RequestException as e:
            print(f"{mid}: {e.__class__.__name__}")
            status = None
        if status == 201:
            mark_processed(mid)
            verdict = "ack"
        elif status == 422:
            verdict = "dead"
        elif method.redelivered:
            verdict = "dead"
        else:
            verdict = "requeue"
        print(f"{mid}: {status} -> {verdict}")

    me = threading.current_thread()

    def settle():
        threads.discard(me)
        if not ch.is_open:
            return
        if verdict == "ack":
            ch.basic_ack(tag)
        elif verdict == "dead":
            ch.basic_reject(tag, requeue=False)
        else:
            ch.basic_nack(tag, requeue=True)

    try:
        conn.add_callback_threadsafe(settle)
    except pika.exceptions.AMQPError:
        pass  # connection already closed; broker will redeliver


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    claim_url = args.claim.rstrip("/") + "/v1/claims"

    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    threads = set()

    def on_message(ch_, method, props, body):
        t = threading.Thread(target=handle, daemon=True,
                             args=(conn, ch_, method, props, body, claim_url, threads))
        threads.add(t)
        t.start()

    ctag = ch.basic_consume("claim.in", on_message)
    end = time.monotonic() + args.max_seconds
    while time.monotonic() < end:
        conn.process_data_events(time_limit=min(0.5, max(0.05, end - time.monotonic())))
    ch.basic_cancel(ctag)
    # give running calls a moment to report back, then leave
    grace = time.monotonic() + 3.5
    while threads and time.monotonic() < grace:
        conn.process_data_events(time_limit=0.1)
    conn.close()


if __name__ == "__main__":
    main()
