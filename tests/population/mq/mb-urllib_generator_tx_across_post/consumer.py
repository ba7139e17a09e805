#!/usr/bin/env python3
"""Consume claim.in and hand each claim to the claim system.

consumer.py --claim URL --max-seconds S [--prefetch N] [--timeout T] [-v]
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

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def positive_int(text):
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("must be >= 1")
    return n


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--claim", required=True, help="base URL of the claim system")
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=positive_int, default=5)
    p.add_argument("--timeout", type=float, default=4.0, help="HTTP timeout (s)")
    p.add_argument("-v", "--verbose", action="store_true")
    return p.parse_args(argv)


def open_db(path):
    # isolation_level=None: I want to write BEGIN/COMMIT myself
    db = sqlite3.connect(path, isolation_level=None, timeout=10)
    db.execute("CREATE TABLE IF NOT EXISTS processed ("
               " message_id TEXT PRIMARY KEY,"
               " processed_at REAL NOT NULL)")
    return db


def post_claim(base_url, body, timeout):
    """Return the HTTP status, or None for a connection failure / timeout."""
    req = urllib.request.Request(base_url.rstrip("/") + "/v1/claims", data=body,
                                 method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            resp.read()
            return resp.status
    except urllib.error.HTTPError as e:      # 4xx / 5xx come as exceptions in urllib
        return e.code
    except (urllib.error.URLError, OSError) as e:  # refused, reset, read timeout...
        print("  transport error:", e, file=sys.stderr)
        return None


def handle(ch, db, method, props, body, args):
    mid = props.message_id
    tag = method.delivery_tag
    # one transaction per message: the check and the insert see the same state
    db.execute("BEGIN IMMEDIATE")
    try:
        if mid is not None and db.execute("SELECT 1 FROM processed WHERE message_id = ?",
                                          (mid,)).fetchone():
            db.execute("ROLLBACK")
            print("duplicate, ack without calling:", mid)
            ch.basic_ack(tag)
            return
        status = post_claim(args.claim, body, args.timeout)
        if status == 201:
            if mid is not None:
                db.execute("INSERT INTO processed (message_id, processed_at) VALUES (?, ?)",
                           (mid, time.time()))
            db.execute("COMMIT")          # record first ...
            ch.basic_ack(tag)             # ... then ack
            print("201 ack", mid)
            return
        db.execute("ROLLBACK")
    except Exception:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise

    if status == 422:
        print("422 business rejection -> DLX", mid)
        ch.basic_reject(tag, requeue=False)
    elif method.redelivered:
        print(f"{status or 'no answer'} again on a redelivered message -> DLX", mid)
        ch.basic_reject(tag, requeue=False)
    else:
        print(f"{status or 'no answer'} -> requeue once", mid)
        ch.basic_nack(tag, requeue=True)


def main(argv=None):
    args = parse_args(argv)
    deadline = time.monotonic() + args.max_seconds
    db = open_db(DB_PATH)
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    try:
        for method, props, body in ch.consume("claim.in", auto_ack=False,
                                              inactivity_timeout=0.5):
            if method is not None:
                handle(ch, db, method, props, body, args)
            if time.monotonic() >= deadline:
                break
    finally:
        try:
            ch.cancel()
        except Exception:
            pass
        if conn.is_open:
            conn.close()   # whatever is still unacked goes back to the queue
        db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
