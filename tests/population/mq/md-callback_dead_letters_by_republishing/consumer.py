#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

Event driven (SelectConnection).  Failed claims are parked in claim.dead
together with *why* they failed (x-error-* headers), so whoever looks at the
DLQ does not have to dig through the consumer log.
"""
import argparse
import json
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

ap = argparse.ArgumentParser()
ap.add_argument("--claim", required=True)
ap.add_argument("--max-seconds", type=float, required=True)
ap.add_argument("--prefetch", type=int, default=5)
args = ap.parse_args()

CLAIMS_URL = args.claim.rstrip("/") + "/v1/claims"
deadline = time.monotonic() + args.max_seconds
state = {"stopping": False, "channel": None}

db = sqlite3.connect(DB)
db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at TEXT)")
db.commit()


def already_done(mid):
    return db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone() is not None


def mark_done(mid):
    db.execute("INSERT OR IGNORE INTO processed VALUES (?, datetime('now'))", (mid,))
    db.commit()


def call_claim_system(body):
    """returns (status or None, error text)"""
    req = urllib.request.Request(CLAIMS_URL, data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=3) as r:
            return r.status, ""
    except urllib.error.HTTPError as e:
        return e.code, e.reason
    except Exception as e:            # refused, timeout, reset ...
        return None, repr(e)


def dead_letter(ch, method, props, body, why):
    """copy the message to the DLX with the reason, then drop the original"""
    headers = dict(props.headers or {})
    headers["x-error-reason"] = why
    headers["x-error-at"] = time.strftime("%Y-%m-%dT%H:%M:%S")
    headers["x-original-routing-key"] = method.routing_key
    out = pika.BasicProperties(
        delivery_mode=2,
        message_id=props.message_id,
        content_type=props.content_type,
        headers=headers,
    )
    ch.basic_publish("eai.dlx", "claim.dead", body, out)
    ch.basic_ack(method.delivery_tag)


def on_message(ch, method, props, body):
    if state["stopping"]:
        return                      # will be returned when the connection closes
    if time.monotonic() >= deadline:
        stop()                      # the timer may be stuck behind a batch of deliveries
        return
    mid = props.message_id
    if mid and already_done(mid):
        print(f"[dup ] {mid} ack only")
        ch.basic_ack(method.delivery_tag)
        return

    status, err = call_claim_system(body)
    if status == 201:
        mark_done(mid)
        ch.basic_ack(method.delivery_tag)
        print(f"[ok  ] {mid}")
    elif status == 422:
        print(f"[422 ] {mid} -> claim.dead")
        dead_letter(ch, method, props, body, f"422 {err}")
    elif method.redelivered:
        print(f"[fail] {mid} {status or err} twice -> claim.dead")
        dead_letter(ch, method, props, body, f"{status or ''} {err}".strip())
    else:
        print(f"[retry] {mid} {status or err}")
        ch.basic_nack(method.delivery_tag, requeue=True)


def stop():
    if state["stopping"]:
        return
    state["stopping"] = True
    if conn.is_open:
        conn.close()
    else:
        conn.ioloop.stop()


def on_qos(_frame):
    state["channel"].basic_consume("claim.in", on_message)


def on_channel(ch):
    state["channel"] = ch
    ch.add_on_close_callback(lambda c, reason: stop())
    ch.basic_qos(prefetch_count=args.prefetch, callback=on_qos)


def on_open(c):
    c.channel(on_open_callback=on_channel)


def on_open_error(c, err):
    print("connect failed:", err, file=sys.stderr)
    c.ioloop.stop()


def on_closed(c, reason):
    c.ioloop.stop()


conn = pika.SelectConnection(pika.URLParameters(URL), on_open_callback=on_open,
                             on_open_error_callback=on_open_error,
                             on_close_callback=on_closed)
conn.ioloop.call_later(args.max_seconds, stop)
conn.ioloop.start()
