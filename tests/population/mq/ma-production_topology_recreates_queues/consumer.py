"""Forward claims from claim.in to the claim system (manual ack, DLX, one retry, dedup)."""
from __future__ import annotations

import argparse
import logging
import os
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass

import pika
import requests
from pika.exceptions import AMQPConnectionError

log = logging.getLogger("consumer")


@dataclass(frozen=True)
class Options:
    claim: str
    max_seconds: float
    prefetch: int
    db: str
    timeout: float = 3.0


class Dedup:
    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path)
        self.conn.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, done_at REAL NOT NULL)")
        self.conn.commit()

    def done(self, mid: str) -> bool:
        return self.conn.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None

    def mark(self, mid: str) -> None:
        self.conn.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
        self.conn.commit()


class Stop(Exception):
    pass


def run(opts: Options) -> int:
    deadline = time.monotonic() + opts.max_seconds
    stopping = False

    def on_signal(signum, _):
        nonlocal stopping
        log.info("signal %d: stopping", signum)
        stopping = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    dedup = Dedup(opts.db)
    http = requests.Session()
    endpoint = opts.claim.rstrip("/") + "/v1/claims"
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = None
    for attempt in range(1, 6):
        try:
            conn = pika.BlockingConnection(pika.URLParameters(url))
            break
        except AMQPConnectionError as exc:
            log.warning("AMQP connect failed (%s), attempt %d", exc, attempt)
            if time.monotonic() + attempt > deadline:
                return 2
            time.sleep(attempt * 0.5)
    if conn is None:
        return 2
    ch = conn.channel()
    ch.basic_qos(prefetch_count=opts.prefetch)
    try:
        for method, props, body in ch.consume("claim.in", inactivity_timeout=0.3):
            if stopping or time.monotonic() >= deadline:
                break
            if method is None:
                continue
            mid = props.message_id
            if mid and dedup.done(mid):
                log.info("%s duplicate -> ack", mid)
                ch.basic_ack(method.delivery_tag)
                continue
            left = deadline - time.monotonic()
            try:
                status = http.post(endpoint, data=body, headers={"Content-Type": "application/json"},
                                   timeout=max(0.1, min(opts.timeout, left))).status_code
            except requests.RequestException as exc:
                log.warning("%s transport failure: %s", mid, type(exc).__name__)
                status = None
            if status == 201:
                if mid:
                    dedup.mark(mid)
                ch.basic_ack(method.delivery_tag)
                log.info("%s accepted", mid)
            elif status == 422:
                ch.basic_reject(method.delivery_tag, requeue=False)
                log.info("%s rejected (422) -> DLX", mid)
            elif method.redelivered:
                ch.basic_reject(method.delivery_tag, requeue=False)
                log.info("%s failed twice (%s) -> DLX", mid, status)
            else:
                ch.basic_nack(method.delivery_tag, requeue=True)
                log.info("%s transient (%s) -> requeue", mid, status)
        ch.cancel()
    finally:
        conn.close()
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=3.0, help="per-call timeout in seconds")
    a = ap.parse_args(argv)
    if a.max_seconds <= 0:
        ap.error("--max-seconds must be > 0")
    if a.prefetch < 1:
        ap.error("--prefetch must be >= 1")
    if not a.claim.startswith(("http://", "https://")):
        ap.error("--claim must be an http(s) URL")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    return run(Options(claim=a.claim, max_seconds=a.max_seconds, prefetch=a.prefetch,
                       db=os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"), timeout=a.timeout))


if __name__ == "__main__":
    sys.exit(main())
