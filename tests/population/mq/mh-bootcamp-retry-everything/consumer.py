#!/usr/bin/env python3
"""Steps 4-8: consume claim.in and forward to the claim system."""
import argparse
import os
import sqlite3
import time
from contextlib import closing

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


# ---------- processed-id store (one short connection per operation) ----------
def db_init():
    with closing(sqlite3.connect(DB_PATH)) as db, db:
        db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, created_at TEXT)")


def db_has(message_id):
    with closing(sqlite3.connect(DB_PATH)) as db:
        return db.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone() is not None


def db_add(message_id):
    with closing(sqlite3.connect(DB_PATH)) as db, db:  # `db` as context manager = commit
        db.execute("INSERT OR IGNORE INTO processed VALUES (?, datetime('now'))", (message_id,))


# ---------- claim system ----------
def send_claim(base_url, body, timeout):
    """Returns the status code, or None when the request itself failed."""
    try:
        resp = requests.post(
            f"{base_url.rstrip('/')}/v1/claims",
            data=body,
            headers={"Content-Type": "application/json"},
            timeout=timeout,
        )
        return resp.status_code
    except requests.RequestException as exc:
        print(f"[consumer] request failed: {exc.__class__.__name__}")
        return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()

    db_init()
    end_at = time.monotonic() + args.max_seconds

    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)

    for method, props, body in channel.consume("claim.in", auto_ack=False, inactivity_timeout=0.5):
        remaining = end_at - time.monotonic()
        if remaining <= 0:
            break
        if method is None:
            continue

        msg_id = props.message_id
        if msg_id and db_has(msg_id):
            print(f"[consumer] {msg_id} already processed, ack only")
            channel.basic_ack(method.delivery_tag)
            continue

        status = send_claim(args.claim, body, timeout=max(0.5, min(4.0, remaining)))
        if status == 201:
            db_add(msg_id)
            channel.basic_ack(method.delivery_tag)
            print(f"[consumer] {msg_id} 201 -> ack")
        elif status == 422:
            channel.basic_reject(method.delivery_tag, requeue=False)
            print(f"[consumer] {msg_id} 422 -> dead letter")
        elif method.redelivered:
            channel.basic_reject(method.delivery_tag, requeue=False)
            print(f"[consumer] {msg_id} {status} again -> dead letter")
        else:
            channel.basic_nack(method.delivery_tag, requeue=True)
            print(f"[consumer] {msg_id} {status} -> requeue once")

    channel.cancel()
    connection.close()
    print("[consumer] time is up, bye")


if __name__ == "__main__":
    main()
