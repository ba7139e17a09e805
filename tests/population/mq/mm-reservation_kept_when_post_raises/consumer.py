"""Claim consumer.

    python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 30 [--prefetch 5]

Idempotency: before calling the claim system the consumer *reserves* the message_id in
SQLite (INSERT, PRIMARY KEY). If the insert fails the id is already there, i.e. the claim
was already sent -> ack without calling. The reservation is kept on 201 and released
(DELETE) when the claim system says no, so that the claim can be sent again later.
"""
import argparse
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 3


class ProcessedIds:
    def __init__(self, path):
        self.db = sqlite3.connect(path, timeout=10)
        self.db.execute("CREATE TABLE IF NOT EXISTS processed_ids (message_id TEXT PRIMARY KEY)")
        self.db.commit()

    def reserve(self, message_id):
        """True if this consumer now owns the id, False if it was already there."""
        try:
            self.db.execute("INSERT INTO processed_ids (message_id) VALUES (?)", (message_id,))
            self.db.commit()
            return True
        except sqlite3.IntegrityError:
            return False

    def release(self, message_id):
        self.db.execute("DELETE FROM processed_ids WHERE message_id = ?", (message_id,))
        self.db.commit()


class ClaimConsumer:
    def __init__(self, claim_url, max_seconds, prefetch):
        self.claim_url = claim_url.rstrip("/") + "/v1/claims"
        self.max_seconds = max_seconds
        self.prefetch = prefetch
        self.ids = ProcessedIds(DB_PATH)
        self.deadline = 0.0

    def log(self, text):
        print("[%s] %s" % (time.strftime("%H:%M:%S"), text), file=sys.stderr, flush=True)

    def transient_failure(self, channel, method, message_id, why):
        if method.redelivered:
            self.log("%s: %s again after redelivery -> DLX" % (message_id, why))
            channel.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
        else:
            self.log("%s: %s -> requeue" % (message_id, why))
            channel.basic_nack(delivery_tag=method.delivery_tag, requeue=True)

    def on_message(self, channel, method, properties, body):
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            return
        message_id = properties.message_id

        if not self.ids.reserve(message_id):
            self.log("%s: already processed -> ack" % message_id)
            channel.basic_ack(delivery_tag=method.delivery_tag)
            return

        request = urllib.request.Request(self.claim_url, data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=max(0.1, min(HTTP_TIMEOUT, remaining))) as response:
                status = response.status
        except urllib.error.HTTPError as error:
            self.ids.release(message_id)
            if error.code == 422:
                self.log("%s: 422 documents missing -> DLX" % message_id)
                channel.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
            else:
                self.transient_failure(channel, method, message_id, "HTTP %d" % error.code)
            return
        except (urllib.error.URLError, OSError) as error:
            self.transient_failure(channel, method, message_id, repr(error))
            return

        if status == 201:
            channel.basic_ack(delivery_tag=method.delivery_tag)
            self.log("%s: 201 -> ack" % message_id)
        else:
            self.ids.release(message_id)
            self.transient_failure(channel, method, message_id, "HTTP %d" % status)

    def run(self):
        self.deadline = time.monotonic() + self.max_seconds
        connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
        channel = connection.channel()
        channel.basic_qos(prefetch_count=self.prefetch)
        channel.basic_consume(queue="claim.in", on_message_callback=self.on_message, auto_ack=False)
        connection.call_later(self.max_seconds, channel.stop_consuming)
        channel.start_consuming()
        connection.close()
        self.log("stopped after %ss" % self.max_seconds)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()
    ClaimConsumer(args.claim, args.max_seconds, args.prefetch).run()


if __name__ == "__main__":
    main()
