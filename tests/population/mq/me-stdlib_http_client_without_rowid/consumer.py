#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

HTTP through http.client (standard library only). Outcome table:
  201                          -> record message_id, then ack
  422                          -> reject, requeue=False  (dead letter)
  503 / no connection / timeout -> first time: nack+requeue; already redelivered: reject -> DLX
  anything else                -> nack+requeue
"""
import argparse
import http.client
import os
import sqlite3
import sys
import time
from urllib.parse import urlsplit

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
PER_CALL_TIMEOUT = 5.0
TRANSIENT = object()  # marker for "no HTTP status at all"


def log(*parts):
    print(time.strftime("%H:%M:%S"), *parts, file=sys.stderr, flush=True)


class ClaimSystem:
    def __init__(self, base_url):
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https"):
            raise SystemExit(f"--claim must be an http(s) URL, got {base_url!r}")
        self.https = parts.scheme == "https"
        self.host = parts.hostname
        self.port = parts.port
        self.path = parts.path.rstrip("/") + "/v1/claims"

    def post(self, body, timeout):
        cls = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        conn = cls(self.host, self.port, timeout=timeout)
        try:
            conn.request(
                "POST",
                self.path,
                body=body,
                headers={"Content-Type": "application/json", "Accept": "application/json"},
            )
            resp = conn.getresponse()
            resp.read()
            return resp.status
        except (OSError, http.client.HTTPException) as err:  # refused, reset, socket timeout, bad reply
            log("claim system call failed:", repr(err))
            return TRANSIENT
        finally:
            conn.close()


class Ledger:
    def __init__(self, path):
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS processed ("
            "message_id TEXT NOT NULL PRIMARY KEY, done_at INTEGER NOT NULL) WITHOUT ROWID"
        )

    def seen(self, message_id):
        return self.db.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone() is not None

    def add(self, message_id):
        self.db.execute(
            "INSERT OR IGNORE INTO processed (message_id, done_at) VALUES (?, ?)", (message_id, int(time.time()))
        )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True, help="base URL of the claim system")
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()

    end = time.monotonic() + args.max_seconds
    claims = ClaimSystem(args.claim)
    ledger = Ledger(DB_PATH)

    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)

    handled = 0
    while True:
        left = end - time.monotonic()
        if left <= 0:
            break
        # one short wait at a time so the clock is looked at between every message
        method, props, body = next(channel.consume("claim.in", inactivity_timeout=min(0.5, left)))
        if method is None:
            continue
        tag = method.delivery_tag
        mid = props.message_id

        if mid is not None and ledger.seen(mid):
            log(mid, "duplicate: ack only")
            channel.basic_ack(tag)
            continue

        timeout = max(0.1, min(PER_CALL_TIMEOUT, end - time.monotonic()))
        status = claims.post(body, timeout)

        if status == 201:
            if mid is not None:
                ledger.add(mid)
            channel.basic_ack(tag)
            handled += 1
        elif status == 422:
            channel.basic_reject(tag, requeue=False)
        elif status is TRANSIENT or status == 503:
            if method.redelivered:
                channel.basic_reject(tag, requeue=False)
            else:
                channel.basic_nack(tag, requeue=True)
        else:
            channel.basic_nack(tag, requeue=True)
        log(mid, "->", "no answer" if status is TRANSIENT else status, "redelivered" if method.redelivered else "")

    channel.cancel()
    connection.close()
    log(f"done: {handled} claim(s) accepted")


if __name__ == "__main__":
    main()
