"""consumer.py --claim URL --max-seconds S [--prefetch N]

claim.in -> POST URL/v1/claims. Manual ack after 201 only; 422 dead-lettered at once;
transient failures (503, refused, timeout) get one more delivery, then the DLX.
"""
import argparse
import os
import sqlite3
import time
import urllib.error
import urllib.request

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


class ClaimForwarder:
    http_timeout = 5.0

    def __init__(self, claim_base, deadline, prefetch):
        self.url = claim_base.rstrip("/") + "/v1/claims"
        self.deadline = deadline
        self.db = sqlite3.connect(DB_PATH)
        self.db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, acked_at REAL)")
        self.db.commit()
        self.conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
        self.ch = self.conn.channel()
        self.ch.basic_qos(prefetch_count=prefetch)

    def left(self):
        return self.deadline - time.monotonic()

    def post(self, body):
        """(status or None, cut_by_deadline)"""
        timeout = min(self.http_timeout, max(self.left(), 0.05))
        req = urllib.request.Request(self.url, data=body, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return resp.status, False
        except urllib.error.HTTPError as e:
            return e.code, False
        except Exception:
            return None, self.left() <= 0

    def seen(self, mid):
        return mid is not None and self.db.execute(
            "SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone() is not None

    def handle(self, method, props, body):
        tag = method.delivery_tag
        mid = props.message_id
        if self.seen(mid):
            self.ch.basic_ack(tag)
            return "duplicate"
        status, cut = self.post(body)
        if cut:
            return "stop"              # unacked: the broker hands it back when we close
        if status == 201:
            if mid is not None:
                self.db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
                self.db.commit()
            self.ch.basic_ack(tag)
            return "accepted"
        if status == 422:
            self.ch.basic_reject(tag, requeue=False)
            return "rejected"
        # transient: second failure of a redelivered message goes to the DLX
        if method.redelivered is not None:
            self.ch.basic_reject(tag, requeue=False)
            return "dead"
        self.ch.basic_nack(tag, requeue=True)
        return "requeued"

    def run(self):
        tally = {}
        for method, props, body in self.ch.consume("claim.in", inactivity_timeout=0.5):
            if self.left() <= 0:
                break
            if method is None:
                continue
            outcome = self.handle(method, props, body)
            if outcome == "stop":
                break
            tally[outcome] = tally.get(outcome, 0) + 1
        self.ch.cancel()
        self.conn.close()
        self.db.close()
        return tally


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    print(ClaimForwarder(a.claim, time.monotonic() + a.max_seconds, a.prefetch).run())


if __name__ == "__main__":
    main()
