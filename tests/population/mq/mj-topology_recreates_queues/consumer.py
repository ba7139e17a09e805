#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N] (http.client, no requests)"""
import argparse
import http.client
import os
import socket
import sqlite3
import sys
import time
from urllib.parse import urlsplit

import pika


def post(base, body, timeout):
    """POST body to base/v1/claims; the status code, or None when it could not be done."""
    u = urlsplit(base)
    cls = http.client.HTTPSConnection if u.scheme == "https" else http.client.HTTPConnection
    conn = cls(u.hostname, u.port, timeout=timeout)
    try:
        conn.request("POST", u.path.rstrip("/") + "/v1/claims", body=body,
                     headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        resp.read()
        return resp.status
    except (OSError, http.client.HTTPException) as exc:   # refused, reset, socket.timeout ...
        print("  transient:", repr(exc), file=sys.stderr)
        return None
    finally:
        conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    end = time.monotonic() + args.max_seconds

    db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at TEXT)")
    db.commit()

    amqp = pika.BlockingConnection(pika.URLParameters(
        os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    ch = amqp.channel()
    ch.basic_qos(prefetch_count=args.prefetch)

    for m, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() >= end:
            break
        if m is None:
            continue
        mid = props.message_id
        if mid and db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
            ch.basic_ack(m.delivery_tag)
            print(mid, "seen before, ack")
            continue
        status = post(args.claim, body, max(0.5, min(5.0, end - time.monotonic())))
        if status == 201:
            if mid:
                db.execute("INSERT OR IGNORE INTO processed VALUES (?, datetime('now'))", (mid,))
                db.commit()
            ch.basic_ack(m.delivery_tag)
            print(mid, "201")
        elif status == 422:
            ch.basic_reject(m.delivery_tag, requeue=False)
            print(mid, "422 -> dead")
        elif m.redelivered:
            ch.basic_reject(m.delivery_tag, requeue=False)
            print(mid, status, "second failure -> dead")
        else:
            ch.basic_nack(m.delivery_tag, requeue=True)
            print(mid, status, "requeued")

    amqp.close()
    db.close()


if __name__ == "__main__":
    main()
