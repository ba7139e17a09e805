"""Claim consumer: two channels, worker threads, results marshalled through a queue.

    consumer.py --claim URL --max-seconds S [--prefetch N] [--workers W]

The prefetch budget N is split over the channels (3+2 for 5, 1+1 for 2, 1 for 1), so the
connection never holds more than N unacked deliveries in total. pika objects are touched only
by the main thread; workers only talk HTTP and put (channel, delivery, result) on `done`.
"""
import argparse
import os
import queue
import sqlite3
import sys
import threading
import time

import pika
import requests

TIMEOUT = 4.0
jobs = queue.Queue()
done = queue.Queue()


def worker(url):
    while True:
        ch, method, mid, body = jobs.get()
        try:
            r = requests.post(url, data=body, timeout=TIMEOUT,
                              headers={"Content-Type": "application/json"})
            result = r.status_code
        except requests.RequestException as e:
            result = type(e).__name__          # ConnectTimeout, ReadTimeout, ConnectionError...
        done.put((ch, method, mid, result))


def split(n, parts=2):
    shares = [n // parts + (1 if i < n % parts else 0) for i in range(parts)]
    return [s for s in shares if s > 0]        # prefetch_count=0 would mean "unlimited"!


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    ap.add_argument("--workers", type=int, default=0, help="default: same as --prefetch")
    a = ap.parse_args()
    if a.prefetch < 1:
        ap.error("--prefetch must be >= 1")

    db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    db.execute("CREATE TABLE IF NOT EXISTS processed(message_id TEXT PRIMARY KEY, at TEXT)")
    db.commit()

    url = a.claim.rstrip("/") + "/v1/claims"
    for i in range(a.workers or a.prefetch):
        threading.Thread(target=worker, args=(url,), name=f"w{i}", daemon=True).start()

    conn = pika.BlockingConnection(pika.URLParameters(
        os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    in_flight = {}           # message_id -> parked twins
    state = {"open": True}

    def on_message(ch, method, props, body):
        if not state["open"]:
            return                                  # after the deadline: leave it unacked
        mid = props.message_id
        if db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            print(f"[{ch.channel_number}] dup {mid}: ack, no call", flush=True)
            return
        if mid in in_flight:
            in_flight[mid].append((ch, method, props, body))
            return
        in_flight[mid] = []
        jobs.put((ch, method, mid, body))

    def settle(ch, method, mid, result):
        tag = method.delivery_tag
        if result == 201:
            db.execute("INSERT OR IGNORE INTO processed VALUES (?, datetime('now'))", (mid,))
            db.commit()
            ch.basic_ack(tag)
            verdict = "ack"
        elif result == 422:
            ch.basic_reject(tag, requeue=False)
            verdict = "dead (422)"
        elif method.redelivered:
            ch.basic_reject(tag, requeue=False)
            verdict = "dead (second failure)"
        else:
            ch.basic_nack(tag, requeue=True)
            verdict = "requeue"
        print(f"[{ch.channel_number}] {result} {mid}: {verdict}", flush=True)
        for twin in in_flight.pop(mid, []):
            on_message(*twin)

    def pump(seconds):
        conn.process_data_events(time_limit=seconds)
        while True:
            try:
                item = done.get_nowait()
            except queue.Empty:
                return
            if item[0].is_open:
                settle(*item)

    channels = []
    for share in split(a.prefetch):
        ch = conn.channel()
        ch.basic_qos(prefetch_count=share)
        ch.basic_consume("claim.in", on_message)
        channels.append(ch)
    print("channels/prefetch:", [(c.channel_number, s) for c, s in zip(channels, split(a.prefetch))],
          flush=True)

    deadline = time.monotonic() + a.max_seconds
    while time.monotonic() < deadline:
        pump(0.05)
    state["open"] = False
    grace = time.monotonic() + TIMEOUT + 0.5
    while in_flight and time.monotonic() < grace:
        pump(0.05)
    conn.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
