"""Claim consumer with SQLite de-duplication.

Writes to the processed table are batched (one commit per COMMIT_EVERY records and one
at shutdown) to keep SQLite fsyncs off the hot path.
"""
import argparse
import logging
import os
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass, field

import pika
import requests
from pika.exceptions import AMQPConnectionError

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
logging.getLogger("pika").setLevel(logging.WARNING)
log = logging.getLogger("consumer")

COMMIT_EVERY = 50


@dataclass
class Counters:
    accepted: int = 0
    duplicates: int = 0
    dead: int = 0
    requeued: int = 0


@dataclass
class ProcessedLog:
    path: str
    pending: int = 0
    conn: sqlite3.Connection = field(init=False)

    def __post_init__(self):
        self.conn = sqlite3.connect(self.path)
        self.conn.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, ts REAL)")
        self.conn.commit()

    def contains(self, mid):
        return self.conn.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None

    def add(self, mid):
        self.conn.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
        self.pending += 1
        if self.pending >= COMMIT_EVERY:
            self.flush()

    def flush(self):
        if self.pending:
            self.conn.commit()
            log.info("committed %d processed record(s)", self.pending)
            self.pending = 0

    def close(self):
        self.flush()
        self.conn.close()


class Consumer:
    def __init__(self, args):
        self.args = args
        self.deadline = time.monotonic() + args.max_seconds
        self.stop = False
        self.db = ProcessedLog(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
        self.http = requests.Session()
        self.endpoint = args.claim.rstrip("/") + "/v1/claims"
        self.n = Counters()

    def on_signal(self, signum, _frame):
        log.info("signal %s: shutting down cleanly", signum)
        self.stop = True

    def forward(self, body):
        timeout = max(0.1, min(self.args.http_timeout, self.deadline - time.monotonic()))
        try:
            return self.http.post(self.endpoint, data=body, timeout=timeout,
                                  headers={"Content-Type": "application/json"}).status_code
        except requests.RequestException as exc:
            log.warning("claim system call failed: %s", type(exc).__name__)
            return None

    def handle(self, ch, method, props, body):
        mid = props.message_id
        if mid and self.db.contains(mid):
            ch.basic_ack(method.delivery_tag)
            self.n.duplicates += 1
            return
        status = self.forward(body)
        if status == 201:
            if mid:
                self.db.add(mid)
            ch.basic_ack(method.delivery_tag)
            self.n.accepted += 1
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
            self.n.dead += 1
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
            self.n.dead += 1
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
            self.n.requeued += 1
        log.info("%s -> %s", mid, status)

    def connect(self):
        params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
        delay = 0.25
        while True:
            try:
                return pika.BlockingConnection(params)
            except AMQPConnectionError as exc:
                if time.monotonic() + delay >= self.deadline:
                    raise
                log.warning("broker unreachable (%s); retrying in %.2fs", exc, delay)
                time.sleep(delay)
                delay = min(delay * 2, 2.0)

    def run(self):
        conn = self.connect()
        ch = conn.channel()
        ch.basic_qos(prefetch_count=self.args.prefetch)
        try:
            for method, props, body in ch.consume("claim.in", inactivity_timeout=0.2):
                if self.stop or time.monotonic() >= self.deadline:
                    break
                if method is not None:
                    self.handle(ch, method, props, body)
            ch.cancel()
        finally:
            conn.close()
            self.db.close()
        log.info("summary %s", self.n)
        return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    ap.add_argument("--http-timeout", type=float, default=2.0)
    args = ap.parse_args()
    if args.max_seconds <= 0 or args.prefetch <= 0 or args.http_timeout <= 0:
        ap.error("--max-seconds, --prefetch and --http-timeout must be positive")
    c = Consumer(args)
    signal.signal(signal.SIGTERM, c.on_signal)
    signal.signal(signal.SIGINT, c.on_signal)
    return c.run()


if __name__ == "__main__":
    sys.exit(main())
