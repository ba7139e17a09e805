#!/usr/bin/env python3
"""Claim consumer. Every delivery becomes an Outcome object that knows how to settle itself:

    Outcome
    +-- Accepted              201                 -> ack
    +-- Rejected              422                 -> reject(requeue=False)  (DLX)
    |   +-- Duplicate         already processed   -> (no call to the claim system)
    +-- Transient             503 / refused / timeout / other
        first time -> nack(requeue=True); already redelivered -> reject(requeue=False)
"""
import argparse
import os
import sqlite3
import sys
import time

import requests

from common import AmqpScript


# ---------------------------------------------------------------- outcomes
class Outcome:
    label = "?"

    def __init__(self, method):
        self.method = method

    def settle(self, ch):
        raise NotImplementedError


class Accepted(Outcome):
    label = "accepted"

    def settle(self, ch):
        ch.basic_ack(delivery_tag=self.method.delivery_tag)


class Rejected(Outcome):
    label = "rejected"

    def settle(self, ch):
        ch.basic_reject(delivery_tag=self.method.delivery_tag, requeue=False)


class Duplicate(Rejected):
    """Already processed: we do not hand it to the claim system again."""
    label = "duplicate"


class Transient(Outcome):
    label = "transient"

    def settle(self, ch):
        if self.method.redelivered:
            ch.basic_reject(delivery_tag=self.method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(delivery_tag=self.method.delivery_tag, requeue=True)


# ---------------------------------------------------------------- collaborators
class ProcessedLog:
    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at REAL)")
        self.db.commit()

    def contains(self, message_id):
        return self.db.execute("SELECT 1 FROM processed WHERE message_id=?", (message_id,)).fetchone() is not None

    def add(self, message_id):
        self.db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (message_id, time.time()))
        self.db.commit()

    def close(self):
        self.db.close()


class ClaimSystem:
    TIMEOUT = 3.0

    def __init__(self, base_url):
        self.url = base_url.rstrip("/") + "/v1/claims"
        self.session = requests.Session()

    def submit(self, body, time_left):
        try:
            r = self.session.post(self.url, data=body, headers={"Content-Type": "application/json"},
                                  timeout=max(0.2, min(self.TIMEOUT, time_left)))
            return r.status_code
        except requests.RequestException:
            return None


# ---------------------------------------------------------------- consumer
class ClaimConsumer(AmqpScript):
    QUEUE = "claim.in"

    def __init__(self, claim_system, log, max_seconds, prefetch):
        super().__init__()
        self.claims = claim_system
        self.log = log
        self.deadline = time.monotonic() + max_seconds
        self.prefetch = prefetch

    def time_left(self):
        return self.deadline - time.monotonic()

    def handle(self, method, props, body) -> Outcome:
        mid = props.message_id
        if mid and self.log.contains(mid):
            return Duplicate(method)
        status = self.claims.submit(body, self.time_left())
        if status == 201:
            if mid:
                self.log.add(mid)          # recorded before the ack
            return Accepted(method)
        if status == 422:
            return Rejected(method)
        return Transient(method)

    def run(self):
        self.channel.basic_qos(prefetch_count=self.prefetch)
        for method, props, body in self.channel.consume(self.QUEUE, inactivity_timeout=0.5):
            if self.time_left() <= 0:
                break
            if method is None:
                continue
            outcome = self.handle(method, props, body)
            outcome.settle(self.channel)
            print(f"{props.message_id}: {outcome.label}")
        self.channel.cancel()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    log = ProcessedLog(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    try:
        with ClaimConsumer(ClaimSystem(a.claim), log, a.max_seconds, a.prefetch) as consumer:
            consumer.run()
    finally:
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
