#!/usr/bin/env python3
"""Steps 4-8: claim.in -> POST /v1/claims, on pika's SelectConnection.

The run ends through an ioloop.call_later timer set to --max-seconds. Closing the connection
hands every unacked delivery back to the broker.
"""
import argparse
import http.client
import os
import sqlite3
import sys
import time
import urllib.parse
from datetime import datetime, timezone

import pika
from pika.adapters.select_connection import SelectConnection

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 4.0  # a hanging claim system counts as a transient failure after this


class ClaimConsumer:
    def __init__(self, claim_url, max_seconds, prefetch):
        u = urllib.parse.urlsplit(claim_url)
        self.https = u.scheme == "https"
        self.host = u.hostname
        self.port = u.port or (443 if self.https else 80)
        self.path = u.path.rstrip("/") + "/v1/claims"
        self.prefetch = prefetch
        self.deadline = time.monotonic() + max_seconds
        self.stopping = False
        self.conn = None
        self.ch = None
        self.failed = False
        self.db = sqlite3.connect(DB)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            " message_id TEXT PRIMARY KEY,"
            " http_status INTEGER NOT NULL,"
            " done_at TEXT NOT NULL)"
        )
        self.db.commit()

    # ---- connection plumbing -------------------------------------------------------------
    def run(self):
        self.conn = SelectConnection(
            pika.URLParameters(URL),
            on_open_callback=self.on_open,
            on_open_error_callback=self.on_open_error,
            on_close_callback=self.on_closed,
        )
        self.conn.ioloop.call_later(max(0.0, self.deadline - time.monotonic()), self.stop)
        self.conn.ioloop.start()
        self.db.close()
        return 1 if self.failed else 0

    def on_open(self, conn):
        if self.stopping:  # the timer fired while we were still connecting
            conn.close()
            return
        conn.channel(on_open_callback=self.on_channel)

    def on_open_error(self, conn, err):
        print(f"cannot connect to the broker: {err}", file=sys.stderr)
        self.failed = True
        self.conn.ioloop.stop()

    def on_channel(self, ch):
        self.ch = ch
        ch.add_on_close_callback(self.on_channel_closed)
        # qos first, consume only once the broker confirmed it
        ch.basic_qos(prefetch_count=self.prefetch, callback=self.on_qos)

    def on_qos(self, _frame):
        self.ch.basic_consume("claim.in", self.on_message, auto_ack=False)

    def on_channel_closed(self, ch, reason):
        if not self.stopping:
            print(f"channel closed: {reason}", file=sys.stderr)
            self.failed = True
        self.stop()

    def on_closed(self, conn, reason):
        self.conn.ioloop.stop()

    def stop(self):
        if self.stopping and not self.conn.is_open:
            return
        self.stopping = True
        if self.conn.is_open:
            self.conn.close()  # unacked deliveries go back to claim.in
        elif self.conn.is_closed:
            self.conn.ioloop.stop()

    # ---- the work ------------------------------------------------------------------------
    def already_done(self, mid):
        if not mid:
            return False
        return self.db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone() is not None

    def remember(self, mid, status):
        if not mid:
            return
        with self.db:  # commits
            self.db.execute(
                "INSERT OR REPLACE INTO processed (message_id, http_status, done_at) VALUES (?, ?, ?)",
                (mid, status, datetime.now(timezone.utc).isoformat()),
            )

    def post(self, body, timeout):
        cls = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        conn = cls(self.host, self.port, timeout=timeout)
        try:
            conn.request("POST", self.path, body=body, headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            resp.read()
            return resp.status
        finally:
            conn.close()

    def on_message(self, ch, method, props, body):
        left = self.deadline - time.monotonic()
        if self.stopping or left < 0.3:
            # time is up: leave it unacked, the close gives it back
            self.stop()
            return
        tag = method.delivery_tag
        mid = props.message_id
        if self.already_done(mid):
            ch.basic_ack(tag)
            print(f"{mid}: already processed, ack only")
            return
        try:
            status = self.post(body, min(HTTP_TIMEOUT, left))
        except (OSError, http.client.HTTPException) as exc:  # refused, reset, timed out
            status = None
            print(f"{mid}: claim system unreachable: {exc!r}")
        if status == 201:
            self.remember(mid, status)
            ch.basic_ack(tag)
            print(f"{mid}: 201 accepted")
        elif status == 422:
            ch.basic_reject(tag, requeue=False)
            print(f"{mid}: 422 rejected -> DLX")
        elif method.redelivered:
            ch.basic_reject(tag, requeue=False)
            print(f"{mid}: {status} again after a redelivery -> DLX")
        else:
            ch.basic_nack(tag, requeue=True)
            print(f"{mid}: {status}, requeued once")


def positive_int(text):
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("must be >= 1")
    return n


def main():
    ap = argparse.ArgumentParser(description="claim.in consumer")
    ap.add_argument("--claim", required=True, help="claim system base URL, e.g. http://127.0.0.1:9202")
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=positive_int, default=5)
    args = ap.parse_args()
    return ClaimConsumer(args.claim, args.max_seconds, args.prefetch).run()


if __name__ == "__main__":
    sys.exit(main())
