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


class Forwarder:
    def __init__(self, claim_base, deadline):
        self.deadline = deadline
        self.url = claim_base.rstrip("/") + "/v1/claims"
        self.http = requests.Session()
        self.db = sqlite3.connect(DB)
        self.db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, status INTEGER)")
        self.db.commit()
        self.closing = False

    def seen(self, mid):
        return self.db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None

    def remember(self, mid, status):
        self.db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, status))
        self.db.commit()

    def retry_or_dead(self, ch, method):
        if method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)

    def on_message(self, ch, method, props, body):
        if self.closing:
            return
        if time.monotonic() >= self.deadline:
            # pika runs the call_later timer only between deliveries, so check here too
            self.closing = True
            ch.stop_consuming()
            return
        mid = props.message_id
        if mid and self.seen(mid):
            ch.basic_ack(method.delivery_tag)
            return
        try:
            resp = self.http.post(self.url, data=body, headers={"Content-Type": "application/json"})
        except requests.exceptions.RequestException as exc:
            print(mid, "failed:", exc.__class__.__name__, flush=True)
            self.retry_or_dead(ch, method)
            return
        print(mid, resp.status_code, flush=True)
        if resp.status_code == 201:
            self.remember(mid, 201)
            ch.basic_ack(method.delivery_tag)
        elif resp.status_code == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            self.retry_or_dead(ch, method)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()

    fwd = Forwarder(args.claim, time.monotonic() + args.max_seconds)
    conn = pika.BlockingConnection(pika.URLParameters(AMQP))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    ch.basic_consume("claim.in", fwd.on_message)

    def time_up():
        fwd.closing = True
        ch.stop_consuming()

    conn.call_later(args.max_seconds, time_up)
    ch.start_consuming()
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
