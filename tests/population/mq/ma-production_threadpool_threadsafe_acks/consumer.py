#!/usr/bin/env python3
"""Claim consumer: deliveries are handed to a thread pool (one worker per prefetch slot) so
several claims are forwarded in parallel; acks/rejects are sent back on the connection's own
thread through add_callback_threadsafe (pika channels are not thread-safe)."""
import argparse
import functools
import logging
import os
import signal
import sqlite3
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import pika
import requests
from pika.exceptions import AMQPConnectionError

log = logging.getLogger("consumer")

ACK, DEAD, RETRY = "ack", "dead", "retry"


@dataclass
class Settings:
    claim: str
    max_seconds: float
    prefetch: int
    db_path: str
    http_timeout: float = 3.0
    amqp_url: str = field(default_factory=lambda: os.environ.get(
        "EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))


@dataclass
class Delivery:
    tag: int
    redelivered: bool
    message_id: str
    body: bytes


class Store:
    """One sqlite connection per thread; WAL so readers don't block the writer."""

    def __init__(self, path):
        self.path = path
        self.local = threading.local()
        db = self._db()
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE IF NOT EXISTS processed ("
                   "message_id TEXT NOT NULL UNIQUE, "
                   "status INTEGER, "
                   "worker TEXT, "
                   "ts REAL)")
        db.commit()

    def _db(self):
        if not hasattr(self.local, "db"):
            self.local.db = sqlite3.connect(self.path, timeout=10)
        return self.local.db

    def has(self, mid):
        return self._db().execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None

    def add(self, mid, status):
        db = self._db()
        db.execute("INSERT OR IGNORE INTO processed VALUES (?,?,?,?)",
                   (mid, status, threading.current_thread().name, time.time()))
        db.commit()


class Consumer:
    def __init__(self, cfg: Settings):
        self.cfg = cfg
        self.deadline = time.monotonic() + cfg.max_seconds
        self.store = Store(cfg.db_path)
        self.pool = ThreadPoolExecutor(max_workers=cfg.prefetch, thread_name_prefix="claim")
        self.http = threading.local()
        self.inflight = 0
        self.stop = threading.Event()
        self.mid_locks = {}
        self.mid_locks_guard = threading.Lock()
        self.endpoint = cfg.claim.rstrip("/") + "/v1/claims"

    # ---- runs on worker threads ----
    def _session(self):
        if not hasattr(self.http, "s"):
            self.http.s = requests.Session()
        return self.http.s

    def _lock_for(self, mid):
        with self.mid_locks_guard:
            return self.mid_locks.setdefault(mid, threading.Lock())

    def process(self, d: Delivery):
        # the same message_id twice in flight: the second waits for the first
        with self._lock_for(d.message_id):
            if d.message_id and self.store.has(d.message_id):
                log.info("%s: duplicate, ack only", d.message_id)
                return ACK
            left = self.deadline - time.monotonic()
            timeout = max(0.2, min(self.cfg.http_timeout, left))
            try:
                r = self._session().post(self.endpoint, data=d.body, timeout=timeout,
                                         headers={"Content-Type": "application/json",
                                                  "X-Message-Id": d.message_id or ""})
                status = r.status_code
            except requests.RequestException as exc:
                log.warning("%s: call failed: %s", d.message_id, exc.__class__.__name__)
                status = None
            if status == 201:
                if d.message_id:
                    self.store.add(d.message_id, status)
                return ACK
            if status == 422:
                return DEAD
            return DEAD if d.redelivered else RETRY

    def work(self, ch, conn, d: Delivery):
        try:
            outcome = self.process(d)
        except Exception:  # never lose track of a delivery
            log.exception("%s: unexpected error", d.message_id)
            outcome = DEAD if d.redelivered else RETRY
        log.info("%s -> %s", d.message_id, outcome)
        conn.add_callback_threadsafe(functools.partial(self.settle, ch, d, outcome))

    # ---- runs on the connection thread ----
    def settle(self, ch, d: Delivery, outcome):
        self.inflight -= 1
        if not ch.is_open:
            return
        if outcome == ACK:
            ch.basic_ack(d.tag)
        elif outcome == DEAD:
            ch.basic_reject(d.tag, requeue=False)
        else:
            ch.basic_nack(d.tag, requeue=True)

    def on_message(self, ch, method, props, body, conn):
        if self.stop.is_set() or time.monotonic() >= self.deadline:
            return  # not started: the broker gets it back when we close
        self.inflight += 1
        d = Delivery(method.delivery_tag, method.redelivered, props.message_id, body)
        self.pool.submit(self.work, ch, conn, d)

    def run(self):
        conn = None
        for attempt in range(1, 6):
            try:
                conn = pika.BlockingConnection(pika.URLParameters(self.cfg.amqp_url))
                break
            except AMQPConnectionError as exc:
                if attempt == 5 or time.monotonic() + attempt * 0.5 >= self.deadline:
                    log.error("cannot reach the broker: %s", exc)
                    return 3
                time.sleep(attempt * 0.5)
        ch = conn.channel()
        ch.basic_qos(prefetch_count=self.cfg.prefetch)
        ctag = ch.basic_consume("claim.in", functools.partial(self.on_message, conn=conn))
        log.info("consuming claim.in (prefetch %d) for %.1fs", self.cfg.prefetch, self.cfg.max_seconds)
        while not self.stop.is_set():
            left = self.deadline - time.monotonic()
            if left <= 0:
                break
            conn.process_data_events(time_limit=min(0.2, left))
        ch.basic_cancel(ctag)
        # let the calls already under way settle (their timeouts end at the deadline)
        grace = time.monotonic() + 1.5
        while self.inflight > 0 and time.monotonic() < grace:
            conn.process_data_events(time_limit=0.05)
        if self.inflight:
            log.warning("%d call(s) still running at shutdown; the broker will redeliver them", self.inflight)
        conn.close()
        self.pool.shutdown(wait=False, cancel_futures=True)
        return 0


def positive(kind):
    def conv(text):
        v = kind(text)
        if v <= 0:
            raise argparse.ArgumentTypeError("must be positive")
        return v
    return conv


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claim", required=True, metavar="URL")
    ap.add_argument("--max-seconds", required=True, type=positive(float))
    ap.add_argument("--prefetch", type=positive(int), default=5)
    ap.add_argument("--http-timeout", type=positive(float), default=3.0)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    logging.basicConfig(level=logging.WARNING if a.quiet else logging.INFO,
                        format="%(asctime)s %(threadName)s %(levelname)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    cfg = Settings(claim=a.claim, max_seconds=a.max_seconds, prefetch=a.prefetch,
                   db_path=os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"),
                   http_timeout=a.http_timeout)
    consumer = Consumer(cfg)

    def on_signal(signum, _frame):
        log.info("got %s, shutting down", signal.Signals(signum).name)
        consumer.stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    return consumer.run()


if __name__ == "__main__":
    sys.exit(main())
