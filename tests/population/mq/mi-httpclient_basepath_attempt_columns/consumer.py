#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

Calls the claim system with the standard library's http.client (no requests).
The --claim URL may carry a path prefix (http://host:port/base -> POST /base/v1/claims).
"""
import argparse
import http.client
import json
import os
import socket
import sqlite3
import sys
import time
from urllib.parse import urlsplit

import pika

AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_FILE = os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
CALL_TIMEOUT = 3.0


def post_claim(base_url, body, timeout):
    """Return (status, note). status None = transient transport problem."""
    u = urlsplit(base_url)
    path = u.path.rstrip("/") + "/v1/claims"
    cls = http.client.HTTPSConnection if u.scheme == "https" else http.client.HTTPConnection
    conn = cls(u.hostname, u.port, timeout=timeout)
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        resp.read()
        return resp.status, resp.reason
    except (OSError, http.client.HTTPException) as e:   # refused, timeout (socket.timeout), reset...
        return None, type(e).__name__
    finally:
        conn.close()


def open_db(path):
    db = sqlite3.connect(path)
    db.execute("""CREATE TABLE IF NOT EXISTS processed (
                    message_id  TEXT PRIMARY KEY,
                    claim_id    TEXT,
                    http_status INTEGER,
                    attempts    INTEGER,
                    done_at     TEXT DEFAULT CURRENT_TIMESTAMP)""")
    db.commit()
    return db


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    end_at = time.monotonic() + a.max_seconds

    db = open_db(DB_FILE)
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)

    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() >= end_at:
            break
        if method is None:
            continue
        mid = props.message_id
        if mid and db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
            print(f"skip {mid}: already processed")
            ch.basic_ack(method.delivery_tag)
            continue
        status, note = post_claim(a.claim, body, max(0.2, min(CALL_TIMEOUT, end_at - time.monotonic())))
        print(f"{mid} -> {status} {note} (redelivered={method.redelivered})")
        if status == 201:
            if mid:
                try:
                    claim_id = json.loads(body).get("claimId")
                except (ValueError, AttributeError):
                    claim_id = None
                db.execute("INSERT OR REPLACE INTO processed (message_id, claim_id, http_status, attempts)"
                           " VALUES (?, ?, ?, ?)",
                           (mid, claim_id, status, 2 if method.redelivered else 1))
                db.commit()
            ch.basic_ack(method.delivery_tag)
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)

    ch.cancel()
    conn.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
