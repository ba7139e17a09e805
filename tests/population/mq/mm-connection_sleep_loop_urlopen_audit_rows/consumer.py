"""consumer.py --claim URL --max-seconds S [--prefetch N]

claim.in -> POST URL/v1/claims, manual acks.

Loop: basic_consume with a callback, and the main loop is connection.sleep() in short
slices until the deadline (sleep() keeps processing frames and dispatches the callbacks,
unlike time.sleep()).

Outcomes
  201                               record (audit row), then ack
  422                               basic_reject(requeue=False) -> eai.dlx -> claim.dead
  503, refused, timeout, other      first time: basic_nack(requeue=True)
                                    already redelivered: basic_reject(requeue=False)
  message_id already recorded       ack, no call

The audit table keeps what was accepted: message_id (PRIMARY KEY), claimId, the status,
a sha256 of the body and when. Only 201 writes a row.
"""
import argparse
import hashlib
import http.client
import json
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request
from contextlib import closing

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
CALL_TIMEOUT = 2.5  # seconds; the claim system normally answers in milliseconds


def log(msg):
    print(time.strftime("%H:%M:%S"), msg, file=sys.stderr, flush=True)


def db():
    conn = sqlite3.connect(DB_PATH, timeout=20)
    conn.execute("PRAGMA synchronous=FULL")
    return conn


def init_db():
    with closing(db()) as conn, conn:
        conn.execute(
            """CREATE TABLE IF NOT EXISTS processed (
                   message_id   TEXT PRIMARY KEY,
                   claim_id     TEXT,
                   http_status  INTEGER NOT NULL,
                   body_sha256  TEXT NOT NULL,
                   processed_at TEXT NOT NULL
               )"""
        )


def seen(message_id):
    with closing(db()) as conn:
        return conn.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone() is not None


def record(message_id, body, status):
    try:
        claim_id = json.loads(body).get("claimId")
    except ValueError:
        claim_id = None
    with closing(db()) as conn, conn:  # the inner "with conn" commits
        conn.execute(
            "INSERT OR IGNORE INTO processed VALUES (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%S','now'))",
            (message_id, claim_id, status, hashlib.sha256(body).hexdigest()),
        )


def call_claim_system(base_url, body, timeout):
    """The HTTP status, or None when no answer came back (refused, timed out, dropped)."""
    req = urllib.request.Request(
        base_url.rstrip("/") + "/v1/claims",
        data=body,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            resp.read()
            return resp.status
    except urllib.error.HTTPError as e:  # 4xx/5xx come as an exception with urlopen
        e.read()
        e.close()
        return e.code
    except (urllib.error.URLError, OSError, http.client.HTTPException) as e:
        log(f"no answer from claim system: {e!r}")
        return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True, help="claim system base URL, e.g. http://127.0.0.1:9202")
    p.add_argument("--max-seconds", required=True, type=float)
    p.add_argument("--prefetch", type=int, default=5)
    args = p.parse_args()

    deadline = time.monotonic() + args.max_seconds
    init_db()

    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)

    def on_message(ch, method, props, body):
        tag = method.delivery_tag
        left = deadline - time.monotonic()
        if left <= 0:
            return  # out of time: not acked, goes back to the queue when we disconnect
        mid = props.message_id
        if mid and seen(mid):
            ch.basic_ack(tag)
            log(f"{mid} already processed -> ack")
            return

        status = call_claim_system(args.claim, body, max(0.1, min(CALL_TIMEOUT, left)))

        if status is None and time.monotonic() >= deadline:
            ch.basic_nack(tag, requeue=True)  # our deadline cut the call; don't count it
            log(f"{mid} call cut by --max-seconds -> requeue")
        elif status == 201:
            if mid:
                record(mid, body, status)
            ch.basic_ack(tag)
            log(f"{mid} 201 -> ack")
        elif status == 422:
            ch.basic_reject(tag, requeue=False)
            log(f"{mid} 422 documents missing -> claim.dead")
        elif method.redelivered:
            ch.basic_reject(tag, requeue=False)
            log(f"{mid} {status} on redelivery -> claim.dead")
        else:
            ch.basic_nack(tag, requeue=True)
            log(f"{mid} {status} -> requeue (one more try)")

    channel.basic_consume("claim.in", on_message, auto_ack=False)

    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        connection.sleep(min(0.3, left))

    connection.close()
    log("max-seconds reached, connection closed")


if __name__ == "__main__":
    main()
