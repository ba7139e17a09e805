#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

The AMQP connection lives in the main thread; the HTTP calls run in a pool of
--prefetch worker threads so a slow claim system never blocks heartbeats.
Workers never touch the channel: they hand the verdict back with
connection.add_callback_threadsafe() and the main thread acks/rejects.

* 201: record message_id in SQLite (committed), then ack
* 422: reject(requeue=False) -> DLX
* 503 / refused / timeout: nack(requeue=True) once; redelivered -> reject -> DLX
* message_id already recorded: ack, no call
* two copies of one message_id in flight at once: the second waits for the
  first (per-id lock) and then sees the record
* the AMQP connection drops: reconnect until --max-seconds is used up
"""
import argparse
import collections
import functools
import logging
import os
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
QUEUE = "claim.in"
HTTP_TIMEOUT = 3.0
DRAIN_GRACE = 3.0

log = logging.getLogger("consumer")

ACK, DEAD, REQUEUE = "ack", "dead", "requeue"


class Ledger:
    def __init__(self, path):
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False)
        with self._lock, self._db:
            self._db.execute("CREATE TABLE IF NOT EXISTS processed ("
                             "message_id TEXT PRIMARY KEY, processed_at REAL)")

    def seen(self, mid):
        with self._lock:
            return self._db.execute("SELECT 1 FROM processed WHERE message_id=?",
                                    (mid,)).fetchone() is not None

    def record(self, mid):
        with self._lock, self._db:          # commits on exit
            self._db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)",
                             (mid, time.time()))


class IdLocks:
    """one lock per message_id, so duplicates in flight are handled one at a time"""

    def __init__(self):
        self._guard = threading.Lock()
        self._locks = collections.defaultdict(threading.Lock)

    def __call__(self, mid):
        with self._guard:
            return self._locks[mid]


def call_claim_system(base, body):
    try:
        r = requests.post(base.rstrip("/") + "/v1/claims", data=body,
                          headers={"Content-Type": "application/json"},
                          timeout=HTTP_TIMEOUT)
    except requests.RequestException as e:     # ConnectionError, Timeout, ...
        return None, type(e).__name__
    return r.status_code, r.reason


class Consumer:
    def __init__(self, args):
        self.args = args
        self.deadline = time.monotonic() + args.max_seconds
        self.ledger = Ledger(DB_PATH)
        self.id_lock = IdLocks()
        self.pool = ThreadPoolExecutor(max_workers=max(1, args.prefetch),
                                       thread_name_prefix="claim")
        self.inflight = 0

    def left(self):
        return self.deadline - time.monotonic()

    # ---- main thread -------------------------------------------------------
    def run(self):
        params = pika.URLParameters(URL)
        while self.left() > 0:
            try:
                self.session(params)
            except pika.exceptions.AMQPError as e:
                log.warning("AMQP trouble (%r); reconnecting", e)
                time.sleep(max(0.0, min(1.0, self.left())))
        self.pool.shutdown(wait=False)

    def session(self, params):
        conn = pika.BlockingConnection(params)
        self.inflight = 0
        try:
            ch = conn.channel()
            ch.basic_qos(prefetch_count=self.args.prefetch)
            tag = ch.basic_consume(QUEUE, functools.partial(self.on_message, conn))
            while self.left() > 0:
                conn.process_data_events(time_limit=min(0.5, max(0.05, self.left())))
            ch.basic_cancel(tag)
            # let the calls already running finish so their verdicts get sent
            until = time.monotonic() + DRAIN_GRACE
            while self.inflight and time.monotonic() < until:
                conn.process_data_events(time_limit=0.1)
        finally:
            if conn.is_open:
                conn.close()     # whatever is still unacked goes back to claim.in

    def on_message(self, conn, ch, method, props, body):
        self.inflight += 1
        self.pool.submit(self.work, conn, ch, method.delivery_tag,
                         method.redelivered, props.message_id, body)

    def settle(self, ch, tag, verdict):
        self.inflight -= 1
        if not ch.is_open:
            return
        if verdict == ACK:
            ch.basic_ack(tag)
        elif verdict == DEAD:
            ch.basic_reject(tag, requeue=False)
        else:
            ch.basic_nack(tag, requeue=True)

    # ---- worker threads ----------------------------------------------------
    def work(self, conn, ch, tag, redelivered, mid, body):
        try:
            verdict = self.decide(redelivered, mid, body)
        except Exception:                       # never lose the delivery silently
            log.exception("worker failed on %s", mid)
            verdict = DEAD if redelivered else REQUEUE
        try:
            conn.add_callback_threadsafe(functools.partial(self.settle, ch, tag, verdict))
        except pika.exceptions.AMQPError:
            # connection already gone: the broker redelivers; a 201 is recorded
            log.info("%s: connection closed before %s could be sent", mid, verdict)

    def decide(self, redelivered, mid, body):
        with self.id_lock(mid or ""):
            if mid and self.ledger.seen(mid):
                log.info("%s: already processed, ack only", mid)
                return ACK
            status, why = call_claim_system(self.args.claim, body)
            if status == 201:
                if mid:
                    self.ledger.record(mid)
                log.info("%s: 201", mid)
                return ACK
        if status == 422:
            log.info("%s: 422 %s -> DLX", mid, why)
            return DEAD
        if redelivered:
            log.info("%s: %s %s after redelivery -> DLX", mid, status, why)
            return DEAD
        log.info("%s: %s %s -> requeue once", mid, status, why)
        return REQUEUE


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(threadName)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    Consumer(args).run()


if __name__ == "__main__":
    main()
