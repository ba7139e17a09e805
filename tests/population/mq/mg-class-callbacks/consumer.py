"""consumer.py --claim URL --max-seconds S [--prefetch N]

Consumes claim.in with basic_consume callbacks and hands each claim to the claim system.
"""
import argparse
import json
import logging
import os
import sqlite3
import time

import pika
import requests

log = logging.getLogger("consumer")


class ProcessedStore:
    """Remembers message_ids of claims the claim system accepted (201)."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            " message_id TEXT PRIMARY KEY,"
            " claim_id TEXT,"
            " http_status INTEGER NOT NULL,"
            " processed_at TEXT NOT NULL DEFAULT (datetime('now'))"
            ") WITHOUT ROWID"
        )
        self.db.commit()

    def seen(self, message_id):
        return self.db.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone() is not None

    def remember(self, message_id, claim_id, status):
        with self.db:  # commits
            self.db.execute("INSERT OR IGNORE INTO processed (message_id, claim_id, http_status) VALUES (?, ?, ?)",
                            (message_id, claim_id, status))


class ClaimConsumer:
    QUEUE = "claim.in"
    HTTP_TIMEOUT = 3.0

    def __init__(self, url, claim_url, prefetch, store):
        self.claim_url = claim_url.rstrip("/") + "/v1/claims"
        self.store = store
        self.deadline = float("inf")
        self.http = requests.Session()
        self.connection = pika.BlockingConnection(pika.URLParameters(url))
        self.channel = self.connection.channel()
        self.channel.basic_qos(prefetch_count=prefetch)
        self.channel.basic_consume(self.QUEUE, self.on_message, auto_ack=False)

    def post(self, body, content_type):
        timeout = max(0.1, min(self.HTTP_TIMEOUT, self.deadline - time.monotonic()))
        try:
            return self.http.post(self.claim_url, data=body, timeout=timeout,
                                  headers={"Content-Type": content_type or "application/json"}).status_code
        except requests.RequestException as exc:  # connection refused, timeout, ...
            log.warning("claim system unreachable: %s", exc.__class__.__name__)
            return None

    def on_message(self, ch, method, props, body):
        tag, message_id = method.delivery_tag, props.message_id
        if time.monotonic() >= self.deadline:
            return  # stopping: leave it unacked, the broker gives it back when we close
        if message_id and self.store.seen(message_id):
            log.info("%s already processed -> ack without calling", message_id)
            ch.basic_ack(tag)
            return
        status = self.post(body, props.content_type)
        if status == 201:
            claim_id = None
            try:
                claim_id = json.loads(body).get("claimId")
            except ValueError:
                pass
            if message_id:
                self.store.remember(message_id, claim_id, status)
            ch.basic_ack(tag)
            log.info("%s accepted -> ack", message_id)
        elif status == 422:
            log.info("%s rejected (documents missing) -> DLX", message_id)
            ch.basic_reject(tag, requeue=False)
        elif method.redelivered:
            log.info("%s failed again (%s) -> DLX", message_id, status)
            ch.basic_reject(tag, requeue=False)
        else:
            log.info("%s failed (%s) -> requeue once", message_id, status)
            ch.basic_nack(tag, requeue=True)

    def run(self, max_seconds):
        self.deadline = deadline = time.monotonic() + max_seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            self.connection.process_data_events(time_limit=min(left, 0.5))
        log.info("time is up (%ss), closing", max_seconds)
        self.connection.close()  # anything unacked goes back to the queue


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True, help="claim system base URL")
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        handlers=[logging.StreamHandler(), logging.FileHandler(os.path.join(os.path.dirname(os.path.abspath(__file__)), "consumer.log"))])
    logging.getLogger("pika").setLevel(logging.WARNING)
    store = ProcessedStore(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    consumer = ClaimConsumer(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"),
                             args.claim, args.prefetch, store)
    consumer.run(args.max_seconds)


if __name__ == "__main__":
    main()
