"""Claim consumer: claim.in -> POST {claim}/v1/claims

    python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 60 [--prefetch 5]

Design notes (for myself):
  * pika's BlockingConnection is not thread safe. The only thing the timer thread does is
    connection.add_callback_threadsafe(channel.stop_consuming): the stop then runs on the
    main thread, between two messages, and start_consuming() returns.
  * A POST never waits past the deadline (timeout = time left), so the stop is never late
    by more than one call.
  * processed_message has a UNIQUE message_id; WAL so a reader (sqlite3 CLI) never blocks me.
"""
import argparse
import json
import logging
import os
import sqlite3
import threading
import time

import pika
import requests

log = logging.getLogger("consumer")

AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_FILE = os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
QUEUE = "claim.in"
TRANSIENT = "transient"


class ProcessedStore:
    def __init__(self, path):
        self.conn = sqlite3.connect(path, timeout=30)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS processed_message ("
            " id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " message_id TEXT NOT NULL UNIQUE,"
            " processed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))"
        )
        self.conn.commit()

    def contains(self, message_id):
        cur = self.conn.execute("SELECT COUNT(*) FROM processed_message WHERE message_id = ?", (message_id,))
        return cur.fetchone()[0] > 0

    def add(self, message_id):
        self.conn.execute("INSERT OR IGNORE INTO processed_message (message_id) VALUES (?)", (message_id,))
        self.conn.commit()

    def close(self):
        self.conn.close()


class ClaimConsumer:
    def __init__(self, claim_url, max_seconds, prefetch):
        self.endpoint = claim_url.rstrip("/") + "/v1/claims"
        self.max_seconds = max_seconds
        self.prefetch = prefetch
        self.deadline = None
        self.store = ProcessedStore(DB_FILE)
        self.http = requests.Session()

    # --- claim system ---------------------------------------------------------
    def send(self, body):
        """Returns the HTTP status, or TRANSIENT when the call itself failed."""
        left = self.deadline - time.monotonic()
        try:
            resp = self.http.post(self.endpoint, data=body,
                                  headers={"Content-Type": "application/json"},
                                  timeout=max(0.1, min(3.0, left)))
            return resp.status_code
        except requests.exceptions.RequestException as e:  # refused, timeout, reset
            log.warning("claim system call failed: %s", e.__class__.__name__)
            return TRANSIENT

    # --- message handler ------------------------------------------------------
    def on_message(self, channel, method, properties, body):
        tag = method.delivery_tag
        if time.monotonic() >= self.deadline:
            return  # stop is on its way; this one stays unacked and goes back on close
        message_id = properties.message_id
        if not message_id:
            message_id = json.loads(body).get("guid")  # fall back to the claim's own guid
        if message_id and self.store.contains(message_id):
            log.info("%s already processed -> ack only", message_id)
            channel.basic_ack(delivery_tag=tag)
            return

        status = self.send(body)
        if status == TRANSIENT and time.monotonic() >= self.deadline:
            # cut short by our own deadline -> not a real failure, just give it back
            channel.basic_nack(delivery_tag=tag, requeue=True)
            return
        if status == 201:
            if message_id:
                self.store.add(message_id)
            channel.basic_ack(delivery_tag=tag)
            log.info("%s accepted (201) -> ack", message_id)
        elif status == 422:
            channel.basic_reject(delivery_tag=tag, requeue=False)
            log.info("%s rejected by business rule (422) -> DLX", message_id)
        elif method.redelivered:
            channel.basic_reject(delivery_tag=tag, requeue=False)
            log.warning("%s failed again (%s) after redelivery -> DLX", message_id, status)
        else:
            channel.basic_nack(delivery_tag=tag, requeue=True)
            log.warning("%s failed (%s) -> requeue once", message_id, status)

    # --- run --------------------------------------------------------------------
    def run(self):
        self.deadline = time.monotonic() + self.max_seconds
        connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
        channel = connection.channel()
        channel.basic_qos(prefetch_count=self.prefetch)

        timer = threading.Timer(max(0.0, self.deadline - time.monotonic()),
                                connection.add_callback_threadsafe, args=(channel.stop_consuming,))
        timer.daemon = True
        timer.start()
        try:
            channel.basic_consume(queue=QUEUE, on_message_callback=self.on_message, auto_ack=False)
            channel.start_consuming()
        finally:
            timer.cancel()
            if connection.is_open:
                connection.close()
            self.store.close()
        log.info("stopped after %.1fs", self.max_seconds)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    ClaimConsumer(args.claim, args.max_seconds, args.prefetch).run()


if __name__ == "__main__":
    main()
