#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]"""
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests

# --- ClaimBus: copied into each script so every script runs on its own ---
DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"


class ClaimBus:
    EXCHANGE = "eai.claim"
    DLX = "eai.dlx"
    IN_QUEUE = "claim.in"
    DEAD_QUEUE = "claim.dead"

    def __init__(self, prefetch=None):
        self.url = os.environ.get("EAI_AMQP_URL", DEFAULT_URL)
        self.connection = pika.BlockingConnection(pika.URLParameters(self.url))
        if prefetch is not None:
            # QoS is a connection-level setting for the consumer: set it once, right after connecting
            self.connection.channel().basic_qos(prefetch_count=prefetch)

    def channel(self):
        return self.connection.channel()

    def close(self):
        if self.connection.is_open:
            self.connection.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
# --- end ClaimBus ---

TRANSIENT = "transient"


class ProcessedLog:
    def __init__(self, path):
        self.db = sqlite3.connect(path)
        with self.db:
            self.db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")

    def __contains__(self, message_id):
        return self.db.execute(
            "SELECT count(*) FROM processed WHERE message_id = ?", (message_id,)
        ).fetchone()[0] > 0

    def add(self, message_id):
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO processed VALUES (?)", (message_id,))


class ClaimClient:
    def __init__(self, base_url):
        self.url = base_url.rstrip("/") + "/v1/claims"

    def submit(self, body, timeout):
        try:
            return requests.post(
                self.url, data=body, headers={"Content-Type": "application/json"}, timeout=timeout
            ).status_code
        except requests.RequestException:
            return TRANSIENT


class Consumer:
    def __init__(self, args):
        self.client = ClaimClient(args.claim)
        self.processed = ProcessedLog(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
        self.max_seconds = args.max_seconds
        self.prefetch = args.prefetch

    def handle(self, ch, method, props, body, time_left):
        tag = method.delivery_tag
        mid = props.message_id
        if mid in self.processed:
            ch.basic_ack(tag)
            return "duplicate"
        result = self.client.submit(body, timeout=max(0.5, min(4.0, time_left)))
        if result == 201:
            self.processed.add(mid)
            ch.basic_ack(tag)
            return "ack"
        if result == 422:
            ch.basic_reject(tag, requeue=False)
            return "dead (422)"
        if method.redelivered:
            ch.basic_reject(tag, requeue=False)
            return f"dead ({result} after redelivery)"
        ch.basic_nack(tag, requeue=True)
        return f"requeued ({result})"

    def run(self):
        deadline = time.monotonic() + self.max_seconds
        with ClaimBus(prefetch=self.prefetch) as bus:
            ch = bus.channel()
            for method, props, body in ch.consume(ClaimBus.IN_QUEUE, inactivity_timeout=1):
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                if method is None:
                    continue
                outcome = self.handle(ch, method, props, body, left)
                print(f"{props.message_id}: {outcome}", flush=True)
            ch.cancel()
        return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    return Consumer(ap.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())
