#!/usr/bin/env python3
"""Claim consumer: claim.in -> claim system, manual ack, DLQ, one retry, dedup."""
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests


class ProcessedLog:
    """message_ids that the claim system accepted (201), kept in SQLite."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS processed_messages ("
            " message_id TEXT PRIMARY KEY,"
            " claim_status INTEGER NOT NULL,"
            " recorded_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"
        )
        self.db.commit()

    def contains(self, message_id):
        row = self.db.execute(
            "SELECT 1 FROM processed_messages WHERE message_id = ?", (message_id,)
        ).fetchone()
        return row is not None

    def add(self, message_id, status):
        with self.db:  # commits
            self.db.execute(
                "INSERT OR REPLACE INTO processed_messages (message_id, claim_status) VALUES (?, ?)",
                (message_id, status),
            )

    def close(self):
        self.db.close()


class ClaimConsumer:
    QUEUE = "claim.in"

    def __init__(self, amqp_url, claim_base, max_seconds, prefetch, log):
        self.amqp_url = amqp_url
        self.endpoint = claim_base.rstrip("/") + "/v1/claims"
        self.deadline = time.monotonic() + max_seconds
        self.prefetch = prefetch
        self.log = log
        self.session = requests.Session()
        self.counts = {"ack": 0, "dup": 0, "dead": 0, "requeue": 0}

    def call_claim_system(self, body):
        timeout = max(0.5, min(5.0, self.deadline - time.monotonic()))
        try:
            return self.session.post(
                self.endpoint, data=body,
                headers={"Content-Type": "application/json"}, timeout=timeout,
            ).status_code
        except requests.RequestException as exc:
            print(f"transient: {exc!r}", file=sys.stderr)
            return None

    def handle(self, ch, method, props, body):
        mid = props.message_id
        # A message can only be a duplicate if the broker is giving it to us again:
        # then we look it up in the log; a fresh delivery goes straight to the claim system.
        if method.redelivered and mid and self.log.contains(mid):
            ch.basic_ack(method.delivery_tag)
            self.counts["dup"] += 1
            return

        status = self.call_claim_system(body)
        if status == 201:
            if mid:
                self.log.add(mid, status)
            ch.basic_ack(method.delivery_tag)
            self.counts["ack"] += 1
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
            self.counts["dead"] += 1
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
            self.counts["dead"] += 1
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
            self.counts["requeue"] += 1

    def run(self):
        conn = pika.BlockingConnection(pika.URLParameters(self.amqp_url))
        ch = conn.channel()
        ch.basic_qos(prefetch_count=self.prefetch)
        for method, props, body in ch.consume(self.QUEUE, inactivity_timeout=0.5):
            if time.monotonic() >= self.deadline:
                break
            if method is not None:
                self.handle(ch, method, props, body)
        ch.cancel()
        conn.close()
        print("done:", self.counts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    log = ProcessedLog(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    try:
        ClaimConsumer(
            os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"),
            a.claim, a.max_seconds, a.prefetch, log,
        ).run()
    finally:
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
