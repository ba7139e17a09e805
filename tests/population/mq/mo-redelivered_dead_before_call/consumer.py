#!/usr/bin/env python3
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests

AMQP = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    claims = a.claim.rstrip("/") + "/v1/claims"
    deadline = time.monotonic() + a.max_seconds

    db = sqlite3.connect(DB)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at TEXT)")
    db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(AMQP))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)

    def on_message(ch, method, props, body):
        tag, mid = method.delivery_tag, props.message_id
        left = deadline - time.monotonic()
        if left < 0.3:
            return  # no time left: stays unacked, goes back on close

        # guard 1: already processed -> ack only
        if db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
            ch.basic_ack(tag)
            print("dup", mid, flush=True)
            return
        # guard 2: it already came back once -> DLX
        if method.redelivered:
            ch.basic_reject(tag, requeue=False)
            print("redelivered -> DLX", mid, flush=True)
            return

        try:
            code = requests.post(claims, data=body, headers={"Content-Type": "application/json"},
                                 timeout=min(4.0, left)).status_code
        except requests.RequestException as e:
            code = None
            print("call failed", mid, type(e).__name__, flush=True)

        if code == 201:
            with db:
                db.execute("INSERT OR IGNORE INTO processed VALUES (?, datetime('now'))", (mid,))
            ch.basic_ack(tag)
            print("201", mid, flush=True)
        elif code == 422:
            ch.basic_reject(tag, requeue=False)
            print("422 -> DLX", mid, flush=True)
        else:
            ch.basic_nack(tag, requeue=True)
            print(code, "-> requeue", mid, flush=True)

    ch.basic_consume("claim.in", on_message, auto_ack=False)
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        conn.process_data_events(time_limit=min(0.5, left))
    conn.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
