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
    endpoint = args.claim.rstrip("/") + "/v1/claims"
    stop = time.monotonic() + args.max_seconds

    db = sqlite3.connect(DB)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, claim_id TEXT, at REAL)")
    db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.queue_declare("claim.in", passive=True)
    ch.basic_qos(prefetch_count=args.prefetch)
    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() >= stop:
            break
        if method is None:
            continue
        mid = props.message_id
        deaths = (props.headers or {}).get("x-death")
        if db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            print(mid, "duplicate -> ack")
            continue
        try:
            status = requests.post(endpoint, data=body, timeout=4,
                                   headers={"Content-Type": "application/json", "X-Message-Id": mid or ""}).status_code
        except (requests.ConnectionError, requests.Timeout) as e:
            status = type(e).__name__
        if status == 201:
            db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?, ?)",
                       (mid, (props.headers or {}).get("claimId"), time.time()))
            db.commit()
            ch.basic_ack(method.delivery_tag)
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
        print(mid, status, "redelivered" if method.redelivered else "", f"x-death={deaths}" if deaths else "", flush=True)
    ch.cancel()
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
