#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]"""
import argparse
import json
import os
import sqlite3
import sys
import time
from collections import Counter

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


class Ledger:
    """SQLite ledger of accepted claims (only successes are written)."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.executescript("""
            CREATE TABLE IF NOT EXISTS ledger (
                message_id TEXT NOT NULL,
                claim      TEXT,
                accepted   TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
            );
            CREATE UNIQUE INDEX IF NOT EXISTS ledger_message_id ON ledger (message_id);
        """)

    def __contains__(self, message_id):
        return self.db.execute("SELECT count(*) FROM ledger WHERE message_id = ?", (message_id,)).fetchone()[0] > 0

    def add(self, message_id, body):
        self.db.execute("INSERT OR IGNORE INTO ledger (message_id, claim) VALUES (?, ?)",
                        (message_id, body.decode("utf-8", "replace")))
        self.db.commit()


class ClaimWorker:
    def __init__(self, claim_url, max_seconds, prefetch):
        self.endpoint = claim_url.rstrip("/") + "/v1/claims"
        self.until = time.monotonic() + max_seconds
        self.prefetch = prefetch
        self.ledger = Ledger(DB)
        self.http = requests.Session()
        self.http.headers.update({"Content-Type": "application/json", "User-Agent": "eaimw-mq-consumer/1.0"})
        self.count = Counter()

    def call(self, props, body):
        try:
            return self.http.post(self.endpoint, data=body, timeout=4,
                                  headers={"Idempotency-Key": props.message_id or ""}).status_code
        except (requests.ConnectionError, requests.Timeout) as exc:
            return type(exc).__name__

    def handle(self, ch, method, props, body):
        mid = props.message_id
        if mid and mid in self.ledger:
            ch.basic_ack(method.delivery_tag)
            return "duplicate-acked"
        status = self.call(props, body)
        if status == 201:
            self.ledger.add(mid, body)
            ch.basic_ack(method.delivery_tag)
            return "accepted"
        if status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
            return "rejected-dlx"
        if method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
            return f"failed-twice-dlx({status})"
        ch.basic_nack(method.delivery_tag, multiple=False, requeue=True)
        return f"requeued({status})"

    def run(self):
        conn = pika.BlockingConnection(pika.URLParameters(URL))
        ch = conn.channel()
        ch.queue_declare("claim.in", passive=True)
        ch.basic_qos(prefetch_count=self.prefetch)
        for method, props, body in ch.consume("claim.in", inactivity_timeout=0.25):
            if time.monotonic() > self.until:
                break
            if method is None:
                continue
            outcome = self.handle(ch, method, props, body)
            self.count[outcome.split("(")[0]] += 1
            print(f"{props.message_id}: {outcome}", flush=True)
        ch.cancel()
        conn.close()
        print(json.dumps({"summary": self.count}), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    ClaimWorker(args.claim, args.max_seconds, args.prefetch).run()


if __name__ == "__main__":
    main()
