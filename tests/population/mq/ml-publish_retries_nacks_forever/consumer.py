#!/usr/bin/env python3
# consumer.py --claim URL --max-seconds S [--prefetch N]
#   (also --claim=URL, --max-seconds=S, --prefetch=N)
import getopt
import json
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 5.0

TRANSIENT = "transient"
REJECTED = "rejected"
ACCEPTED = "accepted"


def usage(msg):
    print(f"consumer.py: {msg}\nusage: consumer.py --claim URL --max-seconds S [--prefetch N]", file=sys.stderr)
    sys.exit(2)


def options(argv):
    try:
        opts, rest = getopt.getopt(argv, "", ["claim=", "max-seconds=", "prefetch="])
    except getopt.GetoptError as e:
        usage(str(e))
    o = dict(opts)
    if rest or "--claim" not in o or "--max-seconds" not in o:
        usage("missing or extra arguments")
    try:
        return o["--claim"], float(o["--max-seconds"]), int(o.get("--prefetch", "5"))
    except ValueError as e:
        usage(str(e))


def classify(base, body, timeout):
    req = urllib.request.Request(base.rstrip("/") + "/v1/claims", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return (ACCEPTED if resp.status == 201 else TRANSIENT), resp.status
    except urllib.error.HTTPError as e:
        return (REJECTED if e.code == 422 else TRANSIENT), e.code
    except Exception as e:  # refused, reset, timed out, half an answer ...
        return TRANSIENT, type(e).__name__


def main():
    claim_url, max_seconds, prefetch = options(sys.argv[1:])
    stop_at = time.monotonic() + max_seconds

    db = sqlite3.connect(DB_PATH)
    db.execute("""CREATE TABLE IF NOT EXISTS processed (
                    message_id TEXT PRIMARY KEY, claim_id TEXT, acked_at REAL)""")
    db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=prefetch)

    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        now = time.monotonic()
        if now >= stop_at:
            break
        if method is None:
            continue
        mid = props.message_id
        if mid is not None and db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            print(f"{mid}: already processed, acked without calling")
            continue
        outcome, detail = classify(claim_url, body, max(0.1, min(HTTP_TIMEOUT, stop_at - now)))
        if outcome == ACCEPTED:
            try:
                claim_id = json.loads(body).get("claimId")
            except (ValueError, AttributeError):
                claim_id = None
            if mid is not None:
                db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?, ?)", (mid, claim_id, time.time()))
                db.commit()
            ch.basic_ack(method.delivery_tag)
        elif outcome == REJECTED:
            ch.basic_reject(method.delivery_tag, requeue=False)
        elif time.monotonic() >= stop_at and detail in ("TimeoutError", "URLError", "timeout"):
            break  # our own deadline cut the call: leave it unacked, the broker gives it back
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
        print(f"{mid}: {outcome} ({detail}){' redelivered' if method.redelivered else ''}")

    ch.cancel()
    conn.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
