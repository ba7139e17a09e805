import argparse
import os
import signal
import sqlite3
import sys
import time

import pika
import requests

URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
COMMIT_EVERY = 20     # one fsync per claim was the slowest part of the loop


class Dedup:
    """Processed message_ids. Reads on the same connection see rows not yet committed."""

    def __init__(self, path):
        os.makedirs(os.path.dirname(os.path.abspath(path)) or ".", exist_ok=True)
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, ts REAL)")
        self.db.commit()
        self.uncommitted = 0

    def seen(self, mid):
        return self.db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None

    def add(self, mid):
        self.db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
        self.uncommitted += 1
        if self.uncommitted >= COMMIT_EVERY:
            self.flush()

    def flush(self):
        self.db.commit()
        self.uncommitted = 0

    def close(self):
        self.flush()
        self.db.close()


def post(url, body, timeout):
    try:
        return requests.post(url, data=body, headers={"Content-Type": "application/json"},
                             timeout=timeout).status_code
    except requests.exceptions.RequestException as e:
        return "failed (%s)" % type(e).__name__


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()

    dedup = Dedup(DB)

    def on_signal(signum, frame):    # Ctrl-C / kill: keep what we recorded
        dedup.close()
        sys.exit(1)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    url = args.claim.rstrip("/") + "/v1/claims"
    end = time.monotonic() + args.max_seconds
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    try:
        for method, props, body in ch.consume("claim.in", inactivity_timeout=1):
            remaining = end - time.monotonic()
            if remaining <= 0:
                break
            if method is None:
                continue
            mid = props.message_id
            if dedup.seen(mid):
                ch.basic_ack(method.delivery_tag)
                print(mid, "duplicate -> ack")
                continue
            status = post(url, body, max(0.2, min(3.0, remaining)))
            print(mid, status, "(redelivered)" if method.redelivered else "")
            if status == 201:
                dedup.add(mid)
                ch.basic_ack(method.delivery_tag)
            elif status == 422 or method.redelivered:
                ch.basic_reject(method.delivery_tag, requeue=False)
            else:
                ch.basic_nack(method.delivery_tag, requeue=True)
        ch.cancel()
    finally:
        conn.close()
        dedup.close()


if __name__ == "__main__":
    main()
