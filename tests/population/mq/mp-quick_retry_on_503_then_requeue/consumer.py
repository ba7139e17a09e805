#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

A busy claim system often recovers within a second, so a 503 gets one quick second try
right here before the message is put back. If it is still busy: requeue once, and a
redelivered message that still fails goes to the DLX.
"""
import argparse
import os
import sqlite3
import time

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def post_claim(url, body):
    try:
        r = requests.post(url, data=body, headers={"Content-Type": "application/json"}, timeout=4)
        if r.status_code == 503:
            time.sleep(1)  # busy: give it a second and try once more
            r = requests.post(url, data=body, headers={"Content-Type": "application/json"}, timeout=4)
        return r.status_code
    except (requests.ConnectionError, requests.Timeout):
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    url = args.claim.rstrip("/") + "/v1/claims"

    db = sqlite3.connect(DB_PATH)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, ts REAL)")
    db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    deadline = time.monotonic() + args.max_seconds

    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() >= deadline:
            break
        if method is None:
            continue
        mid = props.message_id
        if db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            continue
        code = post_claim(url, body)
        if code == 201:
            db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
            db.commit()
            ch.basic_ack(method.delivery_tag)
        elif code == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)

    conn.close()
    db.close()


if __name__ == "__main__":
    main()
