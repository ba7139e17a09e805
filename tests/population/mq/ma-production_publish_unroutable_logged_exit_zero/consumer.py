"""consumer.py --claim URL --max-seconds S [--prefetch N]"""
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

log = logging.getLogger("consumer")


@dataclass(frozen=True)
class Args:
    claim: str
    max_seconds: float
    prefetch: int


def parse(argv=None) -> Args:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    ns = ap.parse_args(argv)
    if ns.max_seconds <= 0:
        ap.error("--max-seconds must be positive")
    if not 1 <= ns.prefetch <= 1000:
        ap.error("--prefetch must be between 1 and 1000")
    return Args(ns.claim.rstrip("/"), ns.max_seconds, ns.prefetch)


class Store:
    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS processed_ids (message_id TEXT PRIMARY KEY, at REAL)")
        self.db.commit()

    def __contains__(self, mid):
        return self.db.execute("SELECT 1 FROM processed_ids WHERE message_id=?", (mid,)).fetchone() is not None

    def add(self, mid):
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO processed_ids VALUES (?, ?)", (mid, time.time()))


def main(argv=None) -> int:
    args = parse(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    deadline = time.monotonic() + args.max_seconds
    store = Store(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    session = requests.Session()
    conn = pika.BlockingConnection(pika.URLParameters(
        os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    state = {"stop": False}

    def on_term(signum, _):
        log.info("signal %d, stopping after the current message", signum)
        state["stop"] = True

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)

    def on_message(ch, method, props, body):
        if state["stop"] or time.monotonic() >= deadline:
            ch.stop_consuming()
            return
        mid = props.message_id
        if mid and mid in store:
            ch.basic_ack(method.delivery_tag)
            log.info("%s duplicate, acked", mid)
            return
        try:
            status = session.post(args.claim + "/v1/claims", data=body,
                                  headers={"Content-Type": "application/json"},
                                  timeout=max(0.1, min(3.0, deadline - time.monotonic()))).status_code
        except requests.RequestException as exc:
            status = type(exc).__name__
        if status == 201:
            if mid:
                store.add(mid)
            ch.basic_ack(method.delivery_tag)
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
        log.info("%s -> %s (redelivered=%s)", mid, status, method.redelivered)

    def tick():
        if state["stop"] or time.monotonic() >= deadline:
            ch.stop_consuming()
        else:
            conn.call_later(0.25, tick)

    ch.basic_consume("claim.in", on_message)
    conn.call_later(0.25, tick)
    try:
        ch.start_consuming()
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
