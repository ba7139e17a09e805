#!/usr/bin/env python3
"""claim consumer with basic_consume callbacks and requests."""
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests

HTTP_TIMEOUT = 3  # seconds; the claim system answers in milliseconds normally


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()

    url = args.claim.rstrip("/") + "/v1/claims"
    db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    db.execute("CREATE TABLE IF NOT EXISTS processed(message_id TEXT PRIMARY KEY, ts REAL)")
    db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(
        os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)

    def transient(method):
        if method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)   # second failure -> DLX
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)      # once more

    def on_claim(ch_, method, props, body):
        mid = props.message_id
        if mid and db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            return
        try:
            r = requests.post(url, data=body, headers={"Content-Type": "application/json"},
                              timeout=HTTP_TIMEOUT)
            r.raise_for_status()
        except requests.ConnectionError:
            print(mid, "claim system down", flush=True)
            transient(method)
            return
        except requests.HTTPError:
            if r.status_code == 422:
                print(mid, "422 documents missing -> DLX", flush=True)
                ch.basic_reject(method.delivery_tag, requeue=False)
            else:
                print(mid, r.status_code, "transient", flush=True)
                transient(method)
            return
        if r.status_code == 201:
            db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
            db.commit()
            ch.basic_ack(method.delivery_tag)
            print(mid, "201 ack", flush=True)
        else:  # 200/202/...: not what the lab calls success
            transient(method)

    ch.basic_consume("claim.in", on_claim)
    conn.call_later(args.max_seconds, ch.stop_consuming)
    ch.start_consuming()
    conn.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
