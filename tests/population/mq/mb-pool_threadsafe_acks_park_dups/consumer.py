#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

Threading model
  * connection thread (main): owns the pika connection, the channel and the SQLite handle.
    Every basic_ack / basic_reject / basic_nack and every DB access happens here.
  * HTTP pool (N = prefetch workers): only does the POST and hands the result back with
    connection.add_callback_threadsafe(). pika's BlockingConnection is not thread safe;
    add_callback_threadsafe is the one method that may be called from another thread.
"""
import argparse
import functools
import logging
import os
import sqlite3
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pika
import requests

HTTP_TIMEOUT = 3.0

log = logging.getLogger("consumer")
_local = threading.local()


def http_session():
    # requests.Session is not guaranteed thread safe: one per worker thread
    s = getattr(_local, "session", None)
    if s is None:
        s = _local.session = requests.Session()
    return s


def post_claim(url, body):
    """worker thread: returns the HTTP status or a string describing the transport failure"""
    try:
        r = http_session().post(url, data=body, timeout=HTTP_TIMEOUT,
                                headers={"Content-Type": "application/json"})
        return r.status_code
    except requests.Timeout:
        return "timeout"
    except requests.RequestException as e:
        return f"connection failure ({type(e).__name__})"


class Consumer:
    def __init__(self, amqp_url, claim_url, prefetch, db_path):
        self.claim_url = claim_url.rstrip("/") + "/v1/claims"
        self.db = sqlite3.connect(db_path)
        self.db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, "
                        "status INTEGER, acked_at REAL)")
        self.db.commit()
        self.pool = ThreadPoolExecutor(max_workers=prefetch, thread_name_prefix="http")
        self.connection = pika.BlockingConnection(pika.URLParameters(amqp_url))
        self.channel = self.connection.channel()
        self.channel.basic_qos(prefetch_count=prefetch)
        self.in_flight = {}       # message_id -> deliveries parked behind the one in flight
        self.accepting = True
        self.stats = dict(ok=0, dup=0, dead=0, retry=0)

    # ---- connection thread ------------------------------------------------------------
    def seen(self, mid):
        return self.db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone()

    def on_message(self, ch, method, props, body):
        if not self.accepting:
            return                      # past the deadline: left unacked, returns on close
        mid = props.message_id or f"no-id-{method.delivery_tag}"
        if self.seen(mid):
            ch.basic_ack(method.delivery_tag)
            self.stats["dup"] += 1
            log.info("dup   %s ack without calling", mid)
            return
        if mid in self.in_flight:       # same message_id already being posted
            self.in_flight[mid].append((method, props, body))
            log.info("park  %s (twin in flight)", mid)
            return
        self.in_flight[mid] = []
        fut = self.pool.submit(post_claim, self.claim_url, body)
        fut.add_done_callback(functools.partial(self.from_worker, method, mid))

    def from_worker(self, method, mid, fut):
        # runs in the worker thread (or here if already done): marshal to connection thread
        try:
            result = fut.result()
        except Exception as e:          # should not happen, but never lose the message
            result = f"error {e!r}"
        try:
            self.connection.add_callback_threadsafe(
                functools.partial(self.settle, method, mid, result))
        except Exception:
            pass  # connection already closed: the broker requeues the message

    def settle(self, method, mid, result):
        ch, tag = self.channel, method.delivery_tag
        if result == 201:
            with self.db:               # record first, committed ...
                self.db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?, ?)",
                                (mid, 201, time.time()))
            ch.basic_ack(tag)           # ... then ack
            self.stats["ok"] += 1
            log.info("201   %s acked", mid)
        elif result == 422:
            ch.basic_reject(tag, requeue=False)
            self.stats["dead"] += 1
            log.info("422   %s -> DLX", mid)
        elif method.redelivered:
            ch.basic_reject(tag, requeue=False)
            self.stats["dead"] += 1
            log.info("%s %s on redelivery -> DLX", result, mid)
        else:
            ch.basic_nack(tag, requeue=True)
            self.stats["retry"] += 1
            log.info("%s %s -> requeue once", result, mid)
        for parked in self.in_flight.pop(mid, []):
            self.on_message(ch, *parked)

    def run(self, max_seconds):
        deadline = time.monotonic() + max_seconds
        self.channel.basic_consume("claim.in", self.on_message, auto_ack=False)
        while time.monotonic() < deadline:
            self.connection.process_data_events(time_limit=min(0.25, max(0, deadline - time.monotonic())))
        # stop taking new work, let the calls in flight finish (bounded by the HTTP timeout)
        self.accepting = False
        drain_until = time.monotonic() + HTTP_TIMEOUT + 1.0
        while self.in_flight and time.monotonic() < drain_until:
            self.connection.process_data_events(time_limit=0.1)
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.connection.close()       # anything still unacked goes back to claim.in
        self.db.close()
        log.info("stopped: %s", self.stats)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    ap.add_argument("--log-level", default="INFO")
    a = ap.parse_args()
    if a.prefetch < 1:
        ap.error("--prefetch must be at least 1")
    logging.basicConfig(level=a.log_level.upper(),
                        format="%(asctime)s %(threadName)-10s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    Consumer(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"),
             a.claim, a.prefetch,
             os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")).run(a.max_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
