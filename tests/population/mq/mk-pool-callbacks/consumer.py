#!/usr/bin/env python3
"""ClaimConsumer: consumes claim.in and forwards every claim to the claim system.

usage: consumer.py --claim URL --max-seconds S [--prefetch N]

Design (one connection, one channel, a worker pool):
  * pika's connection is not thread safe, so the HTTP calls run in a ThreadPoolExecutor and the
    workers hand the ack/nack back to the connection thread with add_callback_threadsafe().
  * basic_qos(prefetch_count=N) limits unacked deliveries; the pool has N workers.
  * 201      -> record message_id in SQLite, then ack
    422      -> reject(requeue=False)  (business rejection, goes to the DLX)
    503 / connection error / timeout / anything else
             -> nack(requeue=True) the first time, reject(requeue=False) if redelivered
  * a message_id already in SQLite is acked without calling the claim system.
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
from datetime import datetime, timezone

import pika
import requests

LOG = logging.getLogger("ClaimConsumer")


class AppConfig:
    DEFAULT_AMQP_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"
    DEFAULT_DB = "/root/eaimw/mq/processed.db"

    def __init__(self, env=os.environ):
        self.amqp_url = env.get("EAI_AMQP_URL", self.DEFAULT_AMQP_URL)
        self.db_path = env.get("EAI_MQ_DB", self.DEFAULT_DB)
        self.queue = env.get("EAI_CLAIM_QUEUE", "claim.in")
        self.http_timeout = float(env.get("EAI_HTTP_TIMEOUT_SECONDS", "3"))
        self.log_level = env.get("EAI_LOG_LEVEL", "INFO").upper()


class Decision:
    ACK = "ACK"            # done (201) or already done (duplicate)
    REJECT = "REJECT"      # to the DLX
    REQUEUE = "REQUEUE"    # try once more
    LEAVE = "LEAVE"        # shutting down: leave it unacked, the broker gives it back


class ProcessedStore:
    """message_ids that were accepted (201) by the claim system. Thread safe (one lock)."""

    def __init__(self, path):
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10)
        with self._lock:
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS processed ("
                " message_id TEXT PRIMARY KEY,"
                " processed_at TEXT NOT NULL)"
            )

    def contains(self, message_id):
        with self._lock:
            row = self._conn.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone()
        return row is not None

    def mark_processed(self, message_id):
        with self._lock:
            self._conn.execute(
                "INSERT OR IGNORE INTO processed (message_id, processed_at) VALUES (?, ?)",
                (message_id, datetime.now(timezone.utc).isoformat()),
            )

    def close(self):
        with self._lock:
            self._conn.close()


class ClaimSystemClient:
    """POST /v1/claims. Returns the HTTP status, or None for a transport failure."""

    def __init__(self, base_url, timeout):
        self.url = base_url.rstrip("/") + "/v1/claims"
        self.timeout = timeout

    def submit(self, body, timeout=None):
        try:
            response = requests.post(
                self.url,
                data=body,
                headers={"Content-Type": "application/json"},
                timeout=timeout if timeout is not None else self.timeout,
            )
            return response.status_code
        except requests.RequestException as e:  # refused, timeout, reset ...
            LOG.warning("claim system call failed: %s", e.__class__.__name__)
            return None


class ClaimConsumer:
    def __init__(self, config, claim_url, max_seconds, prefetch):
        self.config = config
        self.max_seconds = max_seconds
        self.prefetch = prefetch
        self.client = ClaimSystemClient(claim_url, config.http_timeout)
        self.store = ProcessedStore(config.db_path)
        self.connection = None
        self.channel = None
        self.pool = None
        self.deadline = None
        self.stopping = threading.Event()

    # ---- runs on the connection thread -------------------------------------------------
    def on_message(self, channel, method, properties, body):
        message_id = properties.message_id
        if self.stopping.is_set():
            return  # shutting down: leave it unacked, the broker gives it back on close
        LOG.debug("delivery %s message_id=%s redelivered=%s", method.delivery_tag, message_id, method.redelivered)
        self.pool.submit(self.process, method.delivery_tag, method.redelivered, message_id, body)

    def settle(self, delivery_tag, decision, message_id):
        if not self.channel.is_open:
            return
        if decision == Decision.ACK:
            self.channel.basic_ack(delivery_tag=delivery_tag)
        elif decision == Decision.REJECT:
            self.channel.basic_reject(delivery_tag=delivery_tag, requeue=False)
        elif decision == Decision.REQUEUE:
            self.channel.basic_nack(delivery_tag=delivery_tag, requeue=True)
        LOG.info("message %s -> %s", message_id, decision)

    # ---- runs on a worker thread -------------------------------------------------------
    def process(self, delivery_tag, redelivered, message_id, body):
        try:
            decision = self.decide(redelivered, message_id, body)
        except Exception:  # never lose the delivery because of a bug: give it back
            LOG.exception("unexpected error for %s", message_id)
            decision = Decision.REJECT if redelivered else Decision.REQUEUE
        if decision == Decision.LEAVE:
            return
        try:
            self.connection.add_callback_threadsafe(functools.partial(self.settle, delivery_tag, decision, message_id))
        except Exception as e:  # connection already closed: the broker requeues it
            LOG.warning("could not settle %s: %r", message_id, e)

    def decide(self, redelivered, message_id, body):
        if self.stopping.is_set():
            return Decision.LEAVE
        if message_id and self.store.contains(message_id):
            LOG.info("message %s already processed, ack without calling", message_id)
            return Decision.ACK
        remaining = self.deadline - time.monotonic()
        # a little past the deadline, so that a call cut short is seen as our shutdown, not a failure
        timeout = max(0.2, min(self.config.http_timeout, remaining + 1.0))
        status = self.client.submit(body, timeout=timeout)
        if status == 201:
            if message_id:
                self.store.mark_processed(message_id)  # record first, then ack
            return Decision.ACK
        if status == 422:
            LOG.info("message %s rejected by the claim system (422)", message_id)
            return Decision.REJECT
        if status is None and self.stopping.is_set():
            return Decision.LEAVE  # our own deadline cut the call short: not the message's fault
        if redelivered:
            LOG.info("message %s failed again (%s) after a redelivery -> DLX", message_id, status)
            return Decision.REJECT
        LOG.info("message %s failed (%s), requeue once", message_id, status)
        return Decision.REQUEUE

    # ---- lifecycle ---------------------------------------------------------------------
    def run(self):
        self.deadline = time.monotonic() + self.max_seconds
        self.connection = pika.BlockingConnection(pika.URLParameters(self.config.amqp_url))
        self.channel = self.connection.channel()
        self.channel.basic_qos(prefetch_count=self.prefetch)
        self.pool = ThreadPoolExecutor(max_workers=self.prefetch, thread_name_prefix="claim-worker")
        self.channel.basic_consume(queue=self.config.queue, on_message_callback=self.on_message, auto_ack=False)
        LOG.info("consuming %s (prefetch=%d) for %.1f s", self.config.queue, self.prefetch, self.max_seconds)
        try:
            while True:
                remaining = self.deadline - time.monotonic()
                if remaining <= 0:
                    break
                self.connection.process_data_events(time_limit=min(0.5, remaining))
        finally:
            self.shutdown()

    def shutdown(self):
        LOG.info("max-seconds reached, shutting down")
        self.stopping.set()
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        try:
            if self.connection is not None and self.connection.is_open:
                self.connection.process_data_events(time_limit=0)  # flush the last acks
                self.connection.close()
        except pika.exceptions.AMQPError as e:
            LOG.warning("closing: %r", e)
        self.store.close()


def positive_float(text):
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be >= 0")
    return value


def positive_int(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be >= 1")
    return value


def parse_args(argv):
    parser = argparse.ArgumentParser(description="claim.in consumer")
    parser.add_argument("--claim", required=True, help="base URL of the claim system")
    parser.add_argument("--max-seconds", type=positive_float, required=True)
    parser.add_argument("--prefetch", type=positive_int, default=5)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    config = AppConfig()
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s [%(threadName)s] %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    ClaimConsumer(config, args.claim, args.max_seconds, args.prefetch).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
