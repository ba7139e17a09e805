#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]"""
import argparse
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def post(url, body, timeout):
    req = urllib.request.Request(url, data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except Exception as e:  # URLError (refused), TimeoutError, reset... = transient
        print("  transport error:", repr(e), flush=True)
        return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    a = p.parse_args()
    end = time.monotonic() + a.max_seconds
    target = a.claim.rstrip("/") + "/v1/claims"

    db = sqlite3.connect(DB)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, status INTEGER, at REAL)")
    db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)

    for m, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        left = end - time.monotonic()
        if left <= 0.25:
            break
        if m is None:
            continue
        mid = props.message_id
        if db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone():
            ch.basic_ack(m.delivery_tag)
            print(mid, "seen -> ack", flush=True)
            continue
        status = post(target, body, min(4.0, left))
        if status == 201:
            db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?, ?)", (mid, status, time.time()))
            db.commit()
            ch.basic_ack(m.delivery_tag)
        elif status == 422:
            ch.basic_reject(m.delivery_tag, requeue=False)
        elif m.redelivered:
            ch.basic_reject(m.delivery_tag, requeue=False)
        else:
            ch.basic_nack(m.delivery_tag, requeue=True)
        print(mid, status, "redelivered" if m.redelivered else "", flush=True)

    conn.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
