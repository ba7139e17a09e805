#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

Batch style: the main thread pulls up to N (= prefetch) deliveries from the consume() generator,
a thread pool POSTs the batch in parallel, and the main thread (pika's own thread) settles each
delivery (ack / nack / reject) before taking the next batch.
"""
import argparse
import logging
import os
import sqlite3
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pika
import requests

LOGGER = logging.getLogger("consumer")

ACK, DEAD, RETRY, KEEP = "ack", "dead", "retry", "keep"


class ConsumerProperties:
    """Environment with defaults (the Python twin of our application.properties)."""

    def __init__(self):
        self.amqp_url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
        self.db_file = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
        self.http_timeout = float(os.environ.get("EAI_HTTP_TIMEOUT", "2.0"))
        self.idle_wait = float(os.environ.get("EAI_IDLE_WAIT", "0.2"))


class Delivery:
    __slots__ = ("tag", "redelivered", "message_id", "body")

    def __init__(self, method, properties, body):
        self.tag = method.delivery_tag
        self.redelivered = method.redelivered
        self.message_id = properties.message_id
        self.body = body


class IdempotencyStore:
    def __init__(self, path):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.path = path
        with self._open() as db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS processed_claims ("
                " message_id TEXT PRIMARY KEY,"
                " outcome TEXT NOT NULL,"  # ACCEPTED or DEAD_LETTERED: the audit trail of final outcomes
                " finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))"
            )

    def _open(self):
        return sqlite3.connect(self.path, timeout=30)

    # each call opens its own connection: safe from any pool thread
    def seen(self, message_id):
        db = self._open()
        try:
            return db.execute("SELECT 1 FROM processed_claims WHERE message_id=?", (message_id,)).fetchone() is not None
        finally:
            db.close()

    def remember(self, message_id, outcome):
        db = self._open()
        try:
            with db:
                db.execute(
                    "INSERT OR REPLACE INTO processed_claims(message_id, outcome) VALUES (?, ?)", (message_id, outcome)
                )
        finally:
            db.close()


class ClaimForwarder:
    def __init__(self, claim_url, store, timeout, deadline):
        self.url = claim_url.rstrip("/") + "/v1/claims"
        self.store = store
        self.timeout = timeout
        self.deadline = deadline

    def __call__(self, delivery):
        if delivery.message_id and self.store.seen(delivery.message_id):
            LOGGER.info("%s already finished: ack without POST", delivery.message_id)
            return ACK
        left = self.deadline - time.monotonic()
        try:
            status = requests.post(
                self.url,
                data=delivery.body,
                headers={"Content-Type": "application/json"},
                timeout=max(0.1, min(self.timeout, left + 0.5)),
            ).status_code
        except requests.RequestException as e:
            if time.monotonic() >= self.deadline:
                return KEEP  # we are stopping: leave it to the broker
            LOGGER.warning("%s: %s", delivery.message_id, type(e).__name__)
            status = None
        if status == 201:
            if delivery.message_id:
                self.store.remember(delivery.message_id, "ACCEPTED")
            return ACK
        if status == 422 or delivery.redelivered:
            if delivery.message_id:
                self.store.remember(delivery.message_id, "DEAD_LETTERED")  # finished: never again
            return DEAD
        return RETRY


class BatchConsumer:
    def __init__(self, props, claim_url, max_seconds, prefetch):
        self.props = props
        self.prefetch = prefetch
        self.deadline = time.monotonic() + max_seconds
        self.forwarder = ClaimForwarder(claim_url, IdempotencyStore(props.db_file), props.http_timeout, self.deadline)
        self.pool = ThreadPoolExecutor(max_workers=prefetch)

    def run(self):
        connection = pika.BlockingConnection(pika.URLParameters(self.props.amqp_url))
        channel = connection.channel()
        channel.basic_qos(prefetch_count=self.prefetch)
        batch = []
        try:
            for method, properties, body in channel.consume("claim.in", auto_ack=False, inactivity_timeout=self.props.idle_wait):
                if method is not None:
                    batch.append(Delivery(method, properties, body))
                if time.monotonic() >= self.deadline:
                    break  # what is in `batch` stays unacked and goes back
                if batch and (method is None or len(batch) >= self.prefetch):
                    self.process(channel, batch)
                    batch = []
        finally:
            self.pool.shutdown(wait=True)
            try:
                connection.close()
            except pika.exceptions.AMQPError:
                pass

    def process(self, channel, batch):
        # the same message_id twice in one batch: the repeats run after the first one is recorded
        firsts, repeats, ids = [], [], set()
        for d in batch:
            (repeats if d.message_id and d.message_id in ids else firsts).append(d)
            ids.add(d.message_id)
        for group in (firsts, repeats):
            for delivery, verdict in zip(group, self.pool.map(self.forwarder, group)):
                LOGGER.info("%s (redelivered=%s) -> %s", delivery.message_id, delivery.redelivered, verdict)
                if verdict == ACK:
                    channel.basic_ack(delivery.tag)
                elif verdict == DEAD:
                    channel.basic_reject(delivery.tag, requeue=False)
                elif verdict == RETRY:
                    channel.basic_nack(delivery.tag, requeue=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()
    if args.prefetch <= 0:
        parser.error("--prefetch must be positive")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(threadName)s %(name)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    BatchConsumer(ConsumerProperties(), args.claim, args.max_seconds, args.prefetch).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
