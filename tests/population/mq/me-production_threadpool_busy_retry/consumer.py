"""consumer.py --claim URL --max-seconds S [--prefetch N]

Forwards claims from claim.in to the claim system.
* up to --prefetch messages are worked on at once, one worker thread each; pika is not
  thread-safe, so workers hand their ack/nack back to the connection's thread with
  add_callback_threadsafe
* the processed message_ids live in SQLite (WAL) at $EAI_MQ_DB; recorded before the ack
* reconnects to the broker until the deadline when the connection drops
* SIGTERM/SIGINT: stop taking messages, finish what is in flight, exit
"""
import argparse
import dataclasses
import functools
import logging
import os
import signal
import sqlite3
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pika
import pika.exceptions
import requests

log = logging.getLogger("consumer")

ACK, DEAD, REQUEUE = "ack", "dead", "requeue"


@dataclasses.dataclass(frozen=True)
class Config:
    amqp_url: str
    db_path: str
    claim_url: str
    max_seconds: float
    prefetch: int
    http_timeout: float
    busy_retries: int
    busy_backoff: float

    @classmethod
    def load(cls, argv=None):
        ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
        ap.add_argument("--claim", required=True, help="base URL of the claim system")
        ap.add_argument("--max-seconds", type=float, required=True)
        ap.add_argument("--prefetch", type=int, default=5)
        args = ap.parse_args(argv)
        if args.prefetch < 1:
            ap.error("--prefetch must be at least 1")
        env = os.environ
        return cls(
            amqp_url=env.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"),
            db_path=env.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"),
            claim_url=args.claim.rstrip("/"),
            max_seconds=args.max_seconds,
            prefetch=args.prefetch,
            http_timeout=float(env.get("EAI_CLAIM_TIMEOUT", "5")),
            busy_retries=int(env.get("EAI_CLAIM_BUSY_RETRIES", "2")),
            busy_backoff=float(env.get("EAI_CLAIM_BUSY_BACKOFF", "0.2")),
        )


class ProcessedStore:
    """One SQLite connection per thread; autocommit, so a recorded id is on disk before the ack."""

    def __init__(self, path):
        self._path = path
        self._local = threading.local()
        db = self._db()
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            " message_id TEXT PRIMARY KEY, processed_at REAL NOT NULL, worker TEXT)"
        )

    def _db(self):
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self._path, isolation_level=None, timeout=10)
            self._local.db = db
        return db

    def contains(self, message_id):
        return self._db().execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone() is not None

    def add(self, message_id):
        self._db().execute(
            "INSERT OR IGNORE INTO processed (message_id, processed_at, worker) VALUES (?, ?, ?)",
            (message_id, time.time(), threading.current_thread().name),
        )


class ClaimClient:
    def __init__(self, cfg, deadline):
        self._cfg = cfg
        self._deadline = deadline
        self._endpoint = cfg.claim_url + "/v1/claims"
        self._local = threading.local()

    def _session(self):
        s = getattr(self._local, "session", None)
        if s is None:
            s = self._local.session = requests.Session()
        return s

    def submit(self, body):
        """Status code of the claim system's answer, or None when it could not be reached."""
        attempts = 1 + self._cfg.busy_retries
        for attempt in range(1, attempts + 1):
            left = self._deadline - time.monotonic()
            timeout = max(0.2, min(self._cfg.http_timeout, left))
            try:
                resp = self._session().post(
                    self._endpoint, data=body, headers={"Content-Type": "application/json"}, timeout=timeout
                )
            except requests.RequestException as exc:
                log.warning("claim system unreachable: %s", exc)
                return None
            if resp.status_code != 503 or attempt == attempts:
                return resp.status_code
            pause = self._cfg.busy_backoff * attempt
            if time.monotonic() + pause >= self._deadline:
                return resp.status_code
            log.info("claim system busy (503), retry %d/%d in %.1fs", attempt, attempts - 1, pause)
            time.sleep(pause)
        return None


def decide(status, redelivered):
    if status == 201:
        return ACK
    if status == 422:
        return DEAD
    if status is None or status == 503:
        return DEAD if redelivered else REQUEUE
    return REQUEUE


class Consumer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.deadline = time.monotonic() + cfg.max_seconds
        self.stopping = threading.Event()
        self.store = ProcessedStore(cfg.db_path)
        self.client = ClaimClient(cfg, self.deadline)

    def left(self):
        return self.deadline - time.monotonic()

    def run(self):
        while self.left() > 0 and not self.stopping.is_set():
            try:
                self._session()
                return
            except (pika.exceptions.AMQPConnectionError, pika.exceptions.AMQPChannelError) as exc:
                log.warning("broker connection lost (%r); reconnecting", exc)
                time.sleep(max(0.0, min(1.0, self.left())))

    def _session(self):
        connection = pika.BlockingConnection(pika.URLParameters(self.cfg.amqp_url))
        channel = connection.channel()
        channel.basic_qos(prefetch_count=self.cfg.prefetch)
        pool = ThreadPoolExecutor(max_workers=self.cfg.prefetch, thread_name_prefix="claim-worker")

        def settle(tag, action):
            if not channel.is_open:
                return
            if action == ACK:
                channel.basic_ack(delivery_tag=tag)
            elif action == DEAD:
                channel.basic_reject(delivery_tag=tag, requeue=False)
            else:
                channel.basic_nack(delivery_tag=tag, requeue=True)

        def work(tag, redelivered, message_id, body):
            action = REQUEUE
            try:
                if message_id and self.store.contains(message_id):
                    log.info("%s already processed; ack only", message_id)
                    action = ACK
                elif self.left() <= 0:
                    action = REQUEUE
                else:
                    status = self.client.submit(body)
                    action = decide(status, redelivered)
                    if action == ACK and message_id:
                        self.store.add(message_id)
                    log.info("%s -> %s => %s%s", message_id, status, action, " (redelivered)" if redelivered else "")
            except Exception:
                log.exception("worker failed on %s", message_id)
                action = REQUEUE
            try:
                connection.add_callback_threadsafe(functools.partial(settle, tag, action))
            except Exception:  # connection already gone: the broker requeues it, the store deduplicates
                log.warning("could not settle %s (%s): connection closed", message_id, action)

        def on_message(ch, method, props, body):
            if self.stopping.is_set() or self.left() <= 0:
                ch.basic_nack(delivery_tag=method.delivery_tag, requeue=True)
                return
            pool.submit(work, method.delivery_tag, method.redelivered, props.message_id, body)

        consumer_tag = channel.basic_consume("claim.in", on_message_callback=on_message, auto_ack=False)
        log.info("consuming claim.in (prefetch %d, %.1fs left)", self.cfg.prefetch, self.left())
        try:
            while self.left() > 0 and not self.stopping.is_set():
                connection.process_data_events(time_limit=min(0.25, max(0.0, self.left())))
            channel.basic_cancel(consumer_tag)  # not-yet-dispatched deliveries go back
            pool.shutdown(wait=True)  # in-flight calls end by the deadline (their timeouts are capped)
            for _ in range(3):
                connection.process_data_events(time_limit=0.05)  # run the queued acks
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
            if connection.is_open:
                connection.close()


def main(argv=None):
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(threadName)s %(levelname)s %(message)s", stream=sys.stderr
    )
    consumer = Consumer(Config.load(argv))

    def on_signal(signum, _frame):
        log.info("signal %d: stopping", signum)
        consumer.stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    consumer.run()
    log.info("bye")
    return 0


if __name__ == "__main__":
    sys.exit(main())
