#!/usr/bin/env python3
import argparse
import os
import sqlite3
import time

import pika
import requests


class ClaimConsumer:
    def __init__(self, claim_base, max_seconds, prefetch):
        self.claims_url = claim_base.rstrip("/") + "/v1/claims"
        self.max_seconds = max_seconds
        self.prefetch = prefetch

        self.http = requests.Session()
        self.http.headers["Content-Type"] = "application/json"
        self.http.timeout = 4  # seconds, for every call of this session

        self.db = sqlite3.connect(os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
        self.db.execute("""CREATE TABLE IF NOT EXISTS processed (
                               message_id TEXT PRIMARY KEY,
                               claim_status INTEGER,
                               processed_at TEXT DEFAULT CURRENT_TIMESTAMP)""")
        self.db.commit()

    def seen(self, mid):
        return self.db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None

    def remember(self, mid, status):
        self.db.execute("INSERT OR IGNORE INTO processed (message_id, claim_status) VALUES (?, ?)", (mid, status))
        self.db.commit()

    def send(self, body):
        try:
            return self.http.post(self.claims_url, data=body).status_code
        except requests.RequestException as e:
            print("   claim system error:", e.__class__.__name__, flush=True)
            return None

    def handle(self, ch, method, props, body):
        mid = props.message_id
        if self.seen(mid):
            ch.basic_ack(method.delivery_tag)
            print(f"{mid}: already processed, ack", flush=True)
            return
        status = self.send(body)
        if status == 201:
            self.remember(mid, status)
            ch.basic_ack(method.delivery_tag)
            result = "ack"
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
            result = "dead (422)"
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
            result = "dead (failed twice)"
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
            result = "requeue"
        print(f"{mid}: {status} -> {result}", flush=True)

    def run(self):
        url = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
        conn = pika.BlockingConnection(pika.URLParameters(url))
        ch = conn.channel()
        ch.basic_qos(prefetch_count=self.prefetch)
        deadline = time.monotonic() + self.max_seconds
        for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
            if time.monotonic() >= deadline:
                break
            if method is not None:
                self.handle(ch, method, props, body)
        conn.close()
        self.db.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    ClaimConsumer(a.claim, a.max_seconds, a.prefetch).run()
