#!/usr/bin/env python3
"""Claim consumer.

Every message ends in exactly one final outcome, and the outcome is written to
SQLite before the broker is told:
    accepted  (201)                       -> ack
    rejected  (422)                       -> reject, no requeue (DLX)
    gave_up   (transient, 2nd time)       -> reject, no requeue (DLX)
A message_id with a final outcome is never sent to the claim system again:
if it shows up again it is only acked.
"""
import argparse
import os
import sqlite3
import time

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def parse():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    return ap.parse_args()


def open_db():
    os.makedirs(os.path.dirname(os.path.abspath(DB_PATH)), exist_ok=True)
    db = sqlite3.connect(DB_PATH)
    db.execute("""CREATE TABLE IF NOT EXISTS handled (
                      message_id TEXT PRIMARY KEY,
                      outcome    TEXT NOT NULL,
                      at         TEXT DEFAULT CURRENT_TIMESTAMP)""")
    db.commit()
    return db


def finalize(db, mid, outcome):
    if mid:
        with db:
            db.execute("INSERT OR REPLACE INTO handled (message_id, outcome) VALUES (?, ?)", (mid, outcome))


def call(session, url, body, left):
    try:
        return session.post(url, data=body, headers={"Content-Type": "application/json"},
                            timeout=max(0.3, min(3.0, left))).status_code
    except requests.exceptions.RequestException as e:
        print("  transport error:", e.__class__.__name__)
        return None


def main():
    args = parse()
    stop_at = time.monotonic() + args.max_seconds
    url = args.claim.rstrip("/") + "/v1/claims"
    db = open_db()
    session = requests.Session()

    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)

    for method, props, body in channel.consume("claim.in", inactivity_timeout=0.5):
        left = stop_at - time.monotonic()
        if left <= 0:
            break
        if method is None:
            continue
        mid = props.message_id
        row = db.execute("SELECT outcome FROM handled WHERE message_id = ?", (mid,)).fetchone()
        if row:
            print(mid, "already", row[0], "-> ack")
            channel.basic_ack(method.delivery_tag)
            continue
        status = call(session, url, body, left)
        print(mid, status, "redelivered" if method.redelivered else "")
        if status == 201:
            finalize(db, mid, "accepted")
            channel.basic_ack(method.delivery_tag)
        elif status == 422:
            finalize(db, mid, "rejected")
            channel.basic_reject(method.delivery_tag, requeue=False)
        elif method.redelivered:
            finalize(db, mid, "gave_up")
            channel.basic_reject(method.delivery_tag, requeue=False)
        else:
            channel.basic_nack(method.delivery_tag, requeue=True)

    channel.cancel()
    connection.close()
    db.close()


if __name__ == "__main__":
    main()
