#!/usr/bin/env python3
"""Claim consumer: one thread per delivery (the prefetch bounds how many run at once)."""
import argparse
import http.client
import logging
import os
import sqlite3
import sys
import threading
import time
import urllib.error
import urllib.request

import pika

logger = logging.getLogger("eai.mq.ClaimConsumer")


class Configuration(object):
    def __init__(self, environ=None):
        environ = os.environ if environ is None else environ
        self.amqp_url = environ.get("EAI_AMQP_URL") or "amqp://guest:guest@127.0.0.1:5672/%2F"
        self.database = environ.get("EAI_MQ_DB") or "/root/eaimw/mq/processed.db"
        # milliseconds, like every timeout in our Java services
        self.http_timeout_ms = int(environ.get("EAI_CLAIM_TIMEOUT_MS") or "2500")

    @property
    def http_timeout_seconds(self):
        return self.http_timeout_ms / 1000.0


class Outcome(object):
    ACCEPTED = "accepted"          # 201
    REJECTED = "rejected"          # 422, business rejection
    TRANSIENT = "transient"        # 503, refused, timeout, anything unexpected


class ClaimGateway(object):
    def __init__(self, base_url, timeout_seconds):
        self.endpoint = base_url.rstrip("/") + "/v1/claims"
        self.timeout_seconds = timeout_seconds

    def send(self, body):
        request = urllib.request.Request(
            self.endpoint, data=body, method="POST", headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_seconds) as response:
                status = response.status
        except urllib.error.HTTPError as e:  # 4xx / 5xx arrive as exceptions with urllib
            status = e.code
        except (OSError, http.client.HTTPException) as e:  # refused, timeout, reset, garbage
            logger.warning("POST %s failed: %s: %s", self.endpoint, type(e).__name__, e)
            return Outcome.TRANSIENT, None
        if status == 201:
            return Outcome.ACCEPTED, status
        if status == 422:
            return Outcome.REJECTED, status
        return Outcome.TRANSIENT, status


class ProcessedMessageDao(object):
    def __init__(self, path):
        directory = os.path.dirname(path)
        if directory and not os.path.isdir(directory):
            os.makedirs(directory)
        self.lock = threading.RLock()
        self.connection = sqlite3.connect(path, check_same_thread=False)
        with self.lock, self.connection:
            self.connection.execute(
                "CREATE TABLE IF NOT EXISTS processed_messages ("
                "message_id TEXT NOT NULL PRIMARY KEY, "
                "status_code INTEGER, "
                "created_at TEXT DEFAULT CURRENT_TIMESTAMP)"
            )

    def is_processed(self, message_id):
        with self.lock:
            cursor = self.connection.execute(
                "SELECT COUNT(*) FROM processed_messages WHERE message_id = ?", (message_id,)
            )
            return cursor.fetchone()[0] > 0

    def save(self, message_id, status_code):
        with self.lock, self.connection:  # the connection as context manager commits
            self.connection.execute(
                "INSERT OR IGNORE INTO processed_messages (message_id, status_code) VALUES (?, ?)",
                (message_id, status_code),
            )


class ClaimConsumer(object):
    QUEUE = "claim.in"

    def __init__(self, configuration, claim_url, max_seconds, prefetch):
        self.configuration = configuration
        self.max_seconds = max_seconds
        self.prefetch = prefetch
        self.gateway = ClaimGateway(claim_url, configuration.http_timeout_seconds)
        self.dao = ProcessedMessageDao(configuration.database)
        self.connection = None
        self.channel = None
        self.closing = threading.Event()
        self.threads = []

    def start(self):
        started = time.monotonic()
        self.connection = pika.BlockingConnection(pika.URLParameters(self.configuration.amqp_url))
        self.channel = self.connection.channel()
        self.channel.basic_qos(prefetch_count=self.prefetch)
        self.channel.basic_consume(self.QUEUE, self.on_delivery, auto_ack=False)
        remaining = max(0.0, self.max_seconds - (time.monotonic() - started))
        self.connection.call_later(remaining, self.channel.stop_consuming)
        logger.info("consuming %s with prefetch %d for %ss", self.QUEUE, self.prefetch, self.max_seconds)
        try:
            self.channel.start_consuming()
        finally:
            self.stop()

    def on_delivery(self, channel, method, properties, body):
        if self.closing.is_set():
            return  # arrived while closing: stays unacked, the broker requeues it on close
        worker = threading.Thread(
            target=self.handle,
            args=(method.delivery_tag, method.redelivered, properties.message_id, body),
            name="claim-%s" % method.delivery_tag,
            daemon=True,
        )
        self.threads = [t for t in self.threads if t.is_alive()]
        self.threads.append(worker)
        worker.start()

    # worker thread
    def handle(self, tag, redelivered, message_id, body):
        if message_id and self.dao.is_processed(message_id):
            logger.info("%s already processed: ack, no call", message_id)
            self.later(self.channel.basic_ack, tag)
            return
        if self.closing.is_set():
            return
        outcome, status = self.gateway.send(body)
        if self.closing.is_set() and status is None:
            return  # cut by our own shutdown; the broker gets it back
        if outcome == Outcome.ACCEPTED:
            if message_id:
                self.dao.save(message_id, status)
            self.later(self.channel.basic_ack, tag)
        elif outcome == Outcome.REJECTED:
            logger.info("%s rejected (422): dead-letter", message_id)
            self.later(self.channel.basic_reject, tag, requeue=False)
        elif redelivered:
            logger.info("%s failed again (status %s) after redelivery: dead-letter", message_id, status)
            self.later(self.channel.basic_reject, tag, requeue=False)
        else:
            logger.info("%s failed (status %s): requeue once", message_id, status)
            self.later(self.channel.basic_nack, tag, requeue=True)

    def later(self, function, tag, **kwargs):
        """Run a channel method on the connection's thread (pika is not thread safe)."""
        def call():
            if self.channel.is_open:
                function(delivery_tag=tag, **kwargs)
        try:
            self.connection.add_callback_threadsafe(call)
        except (pika.exceptions.ConnectionWrongStateError, AttributeError, RuntimeError):
            logger.warning("connection closed before delivery %s was settled", tag)

    def stop(self):
        self.closing.set()
        deadline = time.monotonic() + 1.0
        for thread in list(self.threads):
            thread.join(max(0.0, deadline - time.monotonic()))
        try:
            if self.connection.is_open:
                self.connection.process_data_events(time_limit=0)
                self.connection.close()
        except pika.exceptions.AMQPError as e:
            logger.warning("error while closing: %r", e)
        logger.info("consumer stopped")


def main():
    parser = argparse.ArgumentParser(description="consume claim.in and forward claims")
    parser.add_argument("--claim", required=True, metavar="URL")
    parser.add_argument("--max-seconds", required=True, type=float)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()
    if args.prefetch < 1:
        parser.error("--prefetch must be >= 1")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(threadName)s %(name)s: %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    ClaimConsumer(Configuration(), args.claim, args.max_seconds, args.prefetch).start()
    return 0


if __name__ == "__main__":
    sys.exit(main())
