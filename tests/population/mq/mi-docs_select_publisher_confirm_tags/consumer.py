#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

claim.in -> POST URL/v1/claims. Settling, as the pika docs name the calls:
  201                      -> record message_id in SQLite, commit, then basic_ack(delivery_tag)
  already recorded         -> basic_ack(delivery_tag) without calling the claim system
  422 (documents missing)  -> basic_reject(delivery_tag, requeue=False)  => eai.dlx / claim.dead
  503, refused, timeout,   -> first time: basic_nack(delivery_tag, requeue=True)
  any other answer            redelivered (method.redelivered): basic_reject(requeue=False)
"""
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
QUEUE = "claim.in"
HTTP_TIMEOUT = 5.0        # seconds for one POST (never beyond the --max-seconds deadline)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claim", required=True, help="base URL of the claim system")
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args(argv)
    if args.prefetch < 1:
        ap.error("--prefetch must be >= 1")
    return args


class ProcessedStore:
    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            " message_id TEXT PRIMARY KEY,"
            " processed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))"
        )
        self.db.commit()

    def seen(self, message_id: str) -> bool:
        return self.db.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone() is not None

    def record(self, message_id: str) -> None:
        with self.db:  # commits before we ack
            self.db.execute("INSERT OR IGNORE INTO processed (message_id) VALUES (?)", (message_id,))


def post_claim(session, base, body, timeout):
    """HTTP status, or None for a connection failure / timeout."""
    try:
        resp = session.post(base.rstrip("/") + "/v1/claims", data=body,
                            headers={"Content-Type": "application/json"}, timeout=timeout)
        return resp.status_code
    except requests.RequestException as exc:
        print(f"consumer: claim system unreachable: {exc.__class__.__name__}", file=sys.stderr)
        return None


def main(argv) -> int:
    args = parse_args(argv)
    deadline = time.monotonic() + args.max_seconds
    store = ProcessedStore(DB_PATH)
    session = requests.Session()

    connection = pika.BlockingConnection(pika.URLParameters(URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)  # before consuming starts
    counts = {"ack": 0, "dup": 0, "dead": 0, "requeue": 0}
    try:
        for method, props, body in channel.consume(QUEUE, auto_ack=False, inactivity_timeout=0.5):
            if time.monotonic() >= deadline:
                break            # an undelivered/unsettled message goes back when we close
            if method is None:
                continue
            tag = method.delivery_tag
            message_id = props.message_id
            if message_id and store.seen(message_id):
                channel.basic_ack(delivery_tag=tag)
                counts["dup"] += 1
                continue
            timeout = max(0.2, min(HTTP_TIMEOUT, deadline - time.monotonic()))
            status = post_claim(session, args.claim, body, timeout)
            if status == 201:
                if message_id:
                    store.record(message_id)
                channel.basic_ack(delivery_tag=tag)
                counts["ack"] += 1
            elif status == 422:
                channel.basic_reject(delivery_tag=tag, requeue=False)
                counts["dead"] += 1
            elif method.redelivered:
                channel.basic_reject(delivery_tag=tag, requeue=False)
                counts["dead"] += 1
            else:
                channel.basic_nack(delivery_tag=tag, multiple=False, requeue=True)
                counts["requeue"] += 1
    finally:
        try:
            channel.cancel()
        finally:
            connection.close()
            store.db.close()
    print("consumer: done " + " ".join(f"{k}={v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
