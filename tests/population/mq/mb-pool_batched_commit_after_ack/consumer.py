"""consumer.py --claim URL --max-seconds S [--prefetch N]

pika on the main thread; POSTs in a ThreadPoolExecutor; every outcome is applied on the
main thread through connection.add_callback_threadsafe (pika is not thread safe).
"""
import argparse
import functools
import os
import sqlite3
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pika
import requests


class RecordBook:
    """processed message_ids. Commits are grouped: fsync per message is too slow."""
    BATCH = 20

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at REAL)")
        self.db.commit()
        self.uncommitted = 0

    def __contains__(self, mid):
        return self.db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None

    def add(self, mid):
        self.db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
        self.uncommitted += 1
        if self.uncommitted >= self.BATCH:
            self.flush()

    def flush(self):
        self.db.commit()
        self.uncommitted = 0

    def close(self):
        self.flush()
        self.db.close()


class ClaimConsumer:
    def __init__(self, args):
        self.url = args.claim.rstrip("/") + "/v1/claims"
        self.book = RecordBook(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
        self.pool = ThreadPoolExecutor(max_workers=args.prefetch)
        self.conn = pika.BlockingConnection(pika.URLParameters(
            os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
        self.ch = self.conn.channel()
        self.ch.basic_qos(prefetch_count=args.prefetch)
        self.busy = 0
        self.closing = False

    def post(self, body):  # worker thread
        try:
            return requests.post(self.url, data=body, timeout=4,
                                 headers={"Content-Type": "application/json"}).status_code
        except requests.RequestException as e:
            return repr(e.__class__.__name__)

    def dispatch(self, ch, method, props, body):  # main thread
        if self.closing:
            return
        mid = props.message_id
        if mid in self.book:
            ch.basic_ack(method.delivery_tag)
            print("duplicate", mid, "-> ack", flush=True)
            return
        self.busy += 1
        fut = self.pool.submit(self.post, body)
        fut.add_done_callback(lambda f: self.conn.add_callback_threadsafe(
            functools.partial(self.finish, method, mid, f.result())))

    def finish(self, method, mid, status):  # main thread
        self.busy -= 1
        tag = method.delivery_tag
        if status == 201:
            self.book.add(mid)           # record ...
            self.ch.basic_ack(tag)       # ... then ack
            print("201", mid, "acked", flush=True)
        elif status == 422:
            self.ch.basic_reject(tag, requeue=False)
            print("422", mid, "dead-lettered", flush=True)
        elif method.redelivered:
            self.ch.basic_reject(tag, requeue=False)
            print(status, mid, "failed twice, dead-lettered", flush=True)
        else:
            self.ch.basic_nack(tag, requeue=True)
            print(status, mid, "requeued", flush=True)

    def run(self, seconds):
        self.ch.basic_consume("claim.in", self.dispatch)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.conn.process_data_events(time_limit=0.2)
        self.closing = True
        grace = time.monotonic() + 5
        while self.busy and time.monotonic() < grace:
            self.conn.process_data_events(time_limit=0.1)
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.conn.close()
        self.book.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    ClaimConsumer(args).run(args.max_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
