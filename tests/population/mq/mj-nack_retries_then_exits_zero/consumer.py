#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]"""
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    deadline = time.monotonic() + args.max_seconds
    endpoint = args.claim.rstrip("/") + "/v1/claims"

    db = sqlite3.connect(DB)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, done_at TEXT)")
    db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)

    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() >= deadline:
            break
        if method is None:
            continue
        tag = method.delivery_tag
        mid = props.message_id
        if mid and db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
            print("duplicate", mid, "-> ack")
            ch.basic_ack(tag)
            continue
        left = max(0.5, min(5.0, deadline - time.monotonic()))
        try:
            r = requests.post(endpoint, data=body,
                              headers={"Content-Type": "application/json"}, timeout=left)
            status = r.status_code
        except requests.RequestException as e:
            print("transient error:", type(e).__name__)
            status = None
        if status == 201:
            if mid:
                db.execute("INSERT OR IGNORE INTO processed VALUES (?, datetime('now'))", (mid,))
                db.commit()
            ch.basic_ack(tag)
            print("ok", mid)
        elif status == 422:
            ch.basic_reject(tag, requeue=False)
            print("422 -> dead", mid)
        elif method.redelivered:
            ch.basic_reject(tag, requeue=False)
            print(status, "again on redelivery -> dead", mid)
        else:
            ch.basic_nack(tag, requeue=True)
            print(status, "-> requeue once", mid)

    conn.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
