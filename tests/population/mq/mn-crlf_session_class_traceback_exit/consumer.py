# consumer.py --claim URL --max-seconds S [--prefetch N]
import argparse
import os
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_FILE = Path(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))


class ProcessedStore:
    def __init__(self, path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(str(path))
        self.conn.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, processed_at TEXT)")
        self.conn.commit()

    def contains(self, message_id):
        with closing(self.conn.cursor()) as cur:
            cur.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,))
            return cur.fetchone() is not None

    def add(self, message_id):
        self.conn.execute("INSERT OR IGNORE INTO processed VALUES (?, datetime('now'))", (message_id,))
        self.conn.commit()

    def close(self):
        self.conn.close()


class ClaimWorker:
    HTTP_TIMEOUT = 4

    def __init__(self, claim_url, max_seconds, prefetch):
        self.endpoint = claim_url.rstrip("/") + "/v1/claims"
        self.deadline = time.monotonic() + max_seconds
        self.prefetch = prefetch
        self.http = requests.Session()
        self.store = ProcessedStore(DB_FILE)

    def time_left(self):
        return self.deadline - time.monotonic()

    def call_claim_system(self, body):
        """Returns the HTTP status, or None when the call itself failed."""
        timeout = max(0.5, min(self.HTTP_TIMEOUT, self.time_left()))
        try:
            r = self.http.post(self.endpoint, data=body,
                               headers={"Content-Type": "application/json"},
                               timeout=timeout)
            return r.status_code
        except requests.RequestException as e:
            print("call failed:", type(e).__name__)
            return None

    def handle(self, channel, method, props, body):
        tag = method.delivery_tag
        mid = props.message_id
        if mid is not None and self.store.contains(mid):
            print("duplicate, ack only:", mid)
            channel.basic_ack(tag)
            return
        status = self.call_claim_system(body)
        print(mid, status, "redelivered" if method.redelivered else "")
        if status == 201:
            if mid is not None:
                self.store.add(mid)
            channel.basic_ack(tag)
        elif status == 422:
            channel.basic_reject(tag, requeue=False)
        elif method.redelivered:
            channel.basic_reject(tag, requeue=False)
        else:
            channel.basic_nack(tag, requeue=True)

    def run(self):
        connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
        channel = connection.channel()
        channel.basic_qos(prefetch_count=self.prefetch)
        try:
            for method, props, body in channel.consume("claim.in", auto_ack=False, inactivity_timeout=0.5):
                if self.time_left() <= 0:
                    if method is not None:
                        channel.basic_nack(method.delivery_tag, requeue=True)
                    break
                if method is None:
                    continue
                self.handle(channel, method, props, body)
            channel.cancel()
        finally:
            connection.close()
            self.store.close()
            self.http.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    ClaimWorker(a.claim, a.max_seconds, a.prefetch).run()


main()
