"""consumer.py --claim URL --max-seconds S [--prefetch N]

The claim system is slow, so claims are POSTed from a pool of worker threads (one per
prefetch slot). pika's BlockingConnection is not thread-safe: workers never touch the
channel, they hand the ack/nack back to the connection thread with add_callback_threadsafe.
"""
import argparse
import functools
import json
import logging
import os
import sqlite3
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pika
import requests

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"
DEFAULT_DB = "/root/eaimw/mq/processed.db"
HTTP_TIMEOUT = 3.0

ACK, REQUEUE, DEAD, STOPPED = "ack", "requeue", "dead", "stopped"


class JsonFormatter(logging.Formatter):
    def format(self, record):
        entry = {"t": round(record.created, 3), "level": record.levelname, "thread": record.threadName,
                 "msg": record.getMessage()}
        entry.update(getattr(record, "fields", {}))
        return json.dumps(entry)


log = logging.getLogger("claim-consumer")


class Ledger:
    """SQLite record of processed message_ids; one connection per thread."""

    def __init__(self, path):
        self.path = path
        self.local = threading.local()
        with self._db() as db:
            db.execute("CREATE TABLE IF NOT EXISTS ledger (message_id TEXT PRIMARY KEY, outcome TEXT, at REAL)")

    def _db(self):
        if not hasattr(self.local, "db"):
            self.local.db = sqlite3.connect(self.path, timeout=10)
        return self.local.db

    def has(self, message_id):
        return self._db().execute("SELECT 1 FROM ledger WHERE message_id = ?", (message_id,)).fetchone() is not None

    def record(self, message_id):
        with self._db() as db:
            db.execute("INSERT OR IGNORE INTO ledger VALUES (?, 'accepted', ?)", (message_id, time.time()))


class Worker:
    def __init__(self, claim_url, ledger, deadline):
        self.url = claim_url.rstrip("/") + "/v1/claims"
        self.ledger = ledger
        self.deadline = deadline
        self.local = threading.local()

    def session(self):
        if not hasattr(self.local, "session"):
            self.local.session = requests.Session()
        return self.local.session

    def handle(self, message_id, redelivered, body):
        fields = {"message_id": message_id, "redelivered": redelivered}
        if message_id and self.ledger.has(message_id):
            log.info("duplicate, ack only", extra={"fields": fields})
            return ACK
        left = self.deadline - time.monotonic()
        if left <= 0:
            return STOPPED
        try:
            status = self.session().post(self.url, data=body, headers={"Content-Type": "application/json"},
                                         timeout=min(HTTP_TIMEOUT, left)).status_code
        except requests.RequestException as exc:
            status = type(exc).__name__
        fields["status"] = status
        if status == 201:
            if message_id:
                self.ledger.record(message_id)  # record first, ack afterwards
            log.info("accepted", extra={"fields": fields})
            return ACK
        if status == 422:
            log.info("business rejection", extra={"fields": fields})
            return DEAD
        if redelivered:
            log.warning("failed again after redelivery", extra={"fields": fields})
            return DEAD
        log.warning("transient failure, requeue once", extra={"fields": fields})
        return REQUEUE


class ClaimConsumer:
    def __init__(self, args):
        self.deadline = time.monotonic() + args.max_seconds
        self.ledger = Ledger(os.environ.get("EAI_MQ_DB", DEFAULT_DB))
        self.worker = Worker(args.claim, self.ledger, self.deadline)
        self.pool = ThreadPoolExecutor(max_workers=args.prefetch, thread_name_prefix="claim")
        self.connection = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", DEFAULT_URL)))
        self.channel = self.connection.channel()
        self.channel.basic_qos(prefetch_count=args.prefetch)
        self.tag = self.channel.basic_consume("claim.in", self.on_message, auto_ack=False)

    def on_message(self, channel, method, properties, body):
        future = self.pool.submit(self.worker.handle, properties.message_id, method.redelivered, body)
        future.add_done_callback(
            lambda f: self.connection.add_callback_threadsafe(functools.partial(self.settle, method.delivery_tag, f))
        )

    def settle(self, delivery_tag, future):
        if not self.channel.is_open:
            return
        try:
            decision = future.result()
        except Exception:  # a bug in the worker: do not lose the message
            log.exception("worker crashed")
            decision = REQUEUE
        if decision == ACK:
            self.channel.basic_ack(delivery_tag)
        elif decision == DEAD:
            self.channel.basic_reject(delivery_tag, requeue=False)
        elif decision == REQUEUE:
            self.channel.basic_nack(delivery_tag, requeue=True)
        # STOPPED: left unacked, the broker returns it when we close

    def run(self):
        while (left := self.deadline - time.monotonic()) > 0:
            self.connection.process_data_events(time_limit=min(left, 0.25))
        self.channel.basic_cancel(self.tag)
        self.pool.shutdown(wait=True, cancel_futures=True)  # workers stop by the deadline (bounded timeout)
        self.connection.process_data_events(time_limit=0)  # deliver the last acks
        self.connection.close()
        log.info("stopped after max-seconds")


def main():
    parser = argparse.ArgumentParser(description="claim.in -> claim system")
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()
    if args.prefetch < 1:
        parser.error("--prefetch must be at least 1")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    logging.getLogger("pika").setLevel(logging.WARNING)
    ClaimConsumer(args).run()


if __name__ == "__main__":
    main()
