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


class Consumer:
    def __init__(self, claim, max_seconds, prefetch):
        self.url = claim.rstrip("/") + "/v1/claims"
        self.deadline = time.monotonic() + max_seconds
        self.prefetch = prefetch
        self.db = sqlite3.connect(DB)
        self.db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, claim_id TEXT, acked_at REAL)")
        self.db.commit()
        self.http = requests.Session()

    def connect(self):
        self.conn = pika.BlockingConnection(pika.URLParameters(URL))
        self.ch = self.conn.channel()
        # check what we rely on before starting
        self.ch.exchange_declare("eai.dlx", passive=True)
        self.ch.queue_declare("claim.dead", passive=True)
        depth = self.ch.queue_declare("claim.in", passive=True).method.message_count
        print(f"claim.in: {depth} waiting", flush=True)

    def start(self):
        self.tag = self.ch.basic_consume("claim.in", self.on_message, auto_ack=False)

    def tune(self):
        self.ch.basic_qos(prefetch_count=self.prefetch)

    def on_message(self, ch, method, props, body):
        if time.monotonic() >= self.deadline:
            return
        mid = props.message_id
        if self.db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            print(mid, "seen -> ack", flush=True)
            return
        try:
            r = self.http.post(self.url, data=body, timeout=4, headers={
                "Content-Type": "application/json",
                "X-Message-Id": mid or "",
                "X-Delivery": "redelivered" if method.redelivered else "first",
            })
            status = r.status_code
        except (requests.ConnectionError, requests.Timeout) as e:
            status = type(e).__name__
        if status == 201:
            self.db.execute("INSERT OR IGNORE INTO processed VALUES (?,?,?)",
                            (mid, (props.headers or {}).get("x-claim-id"), time.time()))
            self.db.commit()
            ch.basic_ack(method.delivery_tag)
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
        print(mid, status, "redelivered" if method.redelivered else "", flush=True)

    def run(self):
        self.connect()
        self.start()
        self.tune()
        last_report = time.monotonic()
        while time.monotonic() < self.deadline:
            self.conn.process_data_events(time_limit=min(0.5, max(0, self.deadline - time.monotonic())))
            if time.monotonic() - last_report > 5:
                last_report = time.monotonic()
                q = self.ch.queue_declare("claim.in", passive=True).method
                print(f"[report] claim.in ready={q.message_count} consumers={q.consumer_count}", flush=True)
        self.ch.basic_cancel(self.tag)
        self.conn.close()
        self.db.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    Consumer(a.claim, a.max_seconds, a.prefetch).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
