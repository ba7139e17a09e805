"""Callback consumer. The deadline timer cancels the consumer; start_consuming() returns
by itself once no consumer is left on the channel."""
import argparse
import json
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

TRANSIENT_LIMIT = 2.5  # seconds per call to the claim system


class Ledger:
    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.executescript("""
            CREATE TABLE IF NOT EXISTS ledger (
                id         INTEGER PRIMARY KEY AUTOINCREMENT,
                message_id TEXT NOT NULL UNIQUE,
                claim_id   TEXT,
                amount     INTEGER,
                created    TEXT DEFAULT CURRENT_TIMESTAMP
            );""")
        self.cache = set()

    def contains(self, mid):
        if mid in self.cache:
            return True
        hit = self.db.execute("SELECT 1 FROM ledger WHERE message_id = ?", (mid,)).fetchone()
        if hit:
            self.cache.add(mid)
        return bool(hit)

    def add(self, mid, claim):
        self.db.execute("INSERT INTO ledger (message_id, claim_id, amount) VALUES (?, ?, ?) "
                        "ON CONFLICT(message_id) DO NOTHING",
                        (mid, claim.get("claimId"), claim.get("amount")))
        self.db.commit()
        self.cache.add(mid)


class App:
    def __init__(self, args):
        self.args = args
        self.started = time.monotonic()
        self.end = self.started + args.max_seconds
        self.ledger = Ledger(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
        self.opener = urllib.request.build_opener()
        self.target = args.claim.rstrip("/") + "/v1/claims"
        self.tally = {}
        self.ctag = None

    def call_claim_system(self, body):
        timeout = max(0.1, min(TRANSIENT_LIMIT, self.end - time.monotonic()))
        req = urllib.request.Request(self.target, data=body, method="POST",
                                     headers={"Content-Type": "application/json",
                                              "Accept": "application/json"})
        try:
            with self.opener.open(req, timeout=timeout) as resp:
                return resp.status
        except urllib.error.HTTPError as e:
            return e.code
        except (urllib.error.URLError, OSError) as e:  # refused, timed out, dropped
            return f"transport error: {e}"

    def on_message(self, ch, method, props, body):
        if time.monotonic() >= self.end:
            return
        mid = props.message_id
        if mid and self.ledger.contains(mid):
            ch.basic_ack(method.delivery_tag)
            self.count("duplicate")
            return
        result = self.call_claim_system(body)
        if result == 201:
            try:
                claim = json.loads(body)
            except ValueError:
                claim = {}
            if mid:
                self.ledger.add(mid, claim if isinstance(claim, dict) else {})
            ch.basic_ack(method.delivery_tag)
            self.count("accepted")
        elif result == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
            self.count("rejected-422")
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
            self.count("dead-after-retry")
        else:
            ch.basic_nack(method.delivery_tag, multiple=False, requeue=True)
            self.count("requeued")
        print(f"[{time.monotonic() - self.started:6.2f}s] {mid} -> {result}", flush=True)

    def count(self, what):
        self.tally[what] = self.tally.get(what, 0) + 1

    def on_deadline(self):
        if self.ctag is not None:
            self.channel.basic_cancel(self.ctag)
            self.ctag = None

    def run(self):
        conn = pika.BlockingConnection(pika.URLParameters(
            os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
        self.channel = conn.channel()
        # one consumer on this channel, so a channel-wide limit is the same limit
        self.channel.basic_qos(prefetch_count=self.args.prefetch, global_qos=True)
        self.ctag = self.channel.basic_consume(queue="claim.in", on_message_callback=self.on_message)
        conn.call_later(max(0, self.end - time.monotonic()), self.on_deadline)
        self.channel.start_consuming()
        conn.close()
        print(json.dumps({"elapsed": round(time.monotonic() - self.started, 2), **self.tally}))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    App(p.parse_args()).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
