#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

Polls claim.in with basic_get (no callbacks) and forwards each claim to URL/v1/claims.

basic.qos does not apply to basic.get (it only limits pushed deliveries), so the window is
kept here: at most --prefetch messages are held unacked at any time. basic_qos is still set,
as the lab asks, in case someone switches this to basic_consume later.

  201             -> record message_id in SQLite, then ack
  422             -> reject(requeue=False): dead-lettered to eai.dlx / claim.dead
  anything else   -> transient: nack(requeue=True) the first time,
                     reject(requeue=False) when it was already redelivered
"""
import argparse
import collections
import http.client
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
QUEUE = "claim.in"
HTTP_TIMEOUT = 5.0
IDLE_POLL = 0.2


class OutOfTime(Exception):
    """The deadline cut a call short: the message is neither done nor failed."""


def open_db(path):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE IF NOT EXISTS processed ("
               " message_id TEXT PRIMARY KEY,"
               " claim_http_status INTEGER,"
               " processed_at TEXT DEFAULT CURRENT_TIMESTAMP)")
    db.commit()
    return db


def already(db, mid):
    return db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone() is not None


def post(claim_url, body, budget):
    """Return the HTTP status, or None for a transport failure (refused, reset, timeout)."""
    timeout = min(HTTP_TIMEOUT, budget)
    req = urllib.request.Request(claim_url, data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            resp.read()
            return resp.status
    except urllib.error.HTTPError as e:
        return e.code
    except (urllib.error.URLError, OSError, http.client.HTTPException) as e:
        if timeout < HTTP_TIMEOUT and isinstance(getattr(e, "reason", e), TimeoutError):
            raise OutOfTime() from e
        print(f"transport failure: {e!r}", file=sys.stderr)
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True, help="claim system base URL")
    ap.add_argument("--max-seconds", required=True, type=float)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    deadline = time.monotonic() + a.max_seconds
    claim_url = a.claim.rstrip("/") + "/v1/claims"

    db = open_db(DB)
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)
    held = collections.deque()
    stats = collections.Counter()

    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            while len(held) < a.prefetch:
                method, props, body = ch.basic_get(QUEUE, auto_ack=False)
                if method is None:
                    break
                held.append((method, props, body))
            if not held:
                conn.sleep(min(IDLE_POLL, left))
                continue

            method, props, body = held.popleft()
            tag, mid = method.delivery_tag, props.message_id
            if mid and already(db, mid):
                ch.basic_ack(tag)
                stats["duplicate"] += 1
                continue
            try:
                status = post(claim_url, body, deadline - time.monotonic())
            except OutOfTime:
                held.appendleft((method, props, body))  # returned when the connection closes
                break
            if status == 201:
                if mid:
                    db.execute("INSERT OR IGNORE INTO processed (message_id, claim_http_status) VALUES (?, ?)",
                               (mid, status))
                    db.commit()
                ch.basic_ack(tag)
                stats["accepted"] += 1
            elif status == 422:
                ch.basic_reject(tag, requeue=False)
                stats["rejected"] += 1
            elif method.redelivered:
                ch.basic_reject(tag, requeue=False)
                stats["dead-after-retry"] += 1
            else:
                ch.basic_nack(tag, requeue=True)
                stats["requeued"] += 1
    finally:
        # whatever is still held goes back to claim.in when the channel closes
        if conn.is_open:
            conn.close()
        db.close()
    print(" ".join(f"{k}={v}" for k, v in sorted(stats.items())) or "nothing to do")
    return 0


if __name__ == "__main__":
    sys.exit(main())
