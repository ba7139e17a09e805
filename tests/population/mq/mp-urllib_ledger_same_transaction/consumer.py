#!/usr/bin/env python3
"""Claim consumer (standard library HTTP).

Bookkeeping: `processed` holds one row per message_id that the claim system accepted (201);
`ledger` is an event journal. The processed row and its 'accepted' ledger line are written in
ONE transaction, committed before the ack: a crash between commit and ack leaves the row, so
the redelivered copy is filtered out.
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

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"
DEFAULT_DB = "/root/eaimw/mq/processed.db"
HTTP_TIMEOUT = 4.0


def open_db(path):
    db = sqlite3.connect(path)
    with db:
        db.execute("""CREATE TABLE IF NOT EXISTS processed (
                          message_id TEXT PRIMARY KEY,
                          claim_id   TEXT,
                          done_at    REAL NOT NULL)""")
        db.execute("""CREATE TABLE IF NOT EXISTS ledger (
                          id         INTEGER PRIMARY KEY AUTOINCREMENT,
                          message_id TEXT,
                          event      TEXT NOT NULL,
                          detail     TEXT,
                          at         REAL NOT NULL)""")
    return db


def journal(db, mid, event, detail=None):
    with db:
        db.execute("INSERT INTO ledger (message_id, event, detail, at) VALUES (?, ?, ?, ?)",
                   (mid, event, detail, time.time()))


def post_claim(base, body):
    """Returns the HTTP status, or None for a connection failure / timeout."""
    req = urllib.request.Request(base.rstrip("/") + "/v1/claims", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT) as resp:
            return resp.status
    except urllib.error.HTTPError as err:
        return err.code
    except OSError as err:  # URLError (refused, connect timeout), socket timeout, reset
        print(f"transient: {err!r}", file=sys.stderr)
        return None


def handle(ch, db, claim_url, method, props, body):
    try:
        claim = json.loads(body)
    except ValueError:
        journal(db, props.message_id, "unparsable")
        ch.basic_reject(method.delivery_tag, requeue=False)
        return
    mid = props.message_id or claim.get("guid")

    if db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone():
        journal(db, mid, "duplicate-skipped")
        ch.basic_ack(method.delivery_tag)
        return

    status = post_claim(claim_url, body)
    if status == 201:
        with db:  # one transaction: record + journal line
            db.execute("INSERT INTO processed (message_id, claim_id, done_at) VALUES (?, ?, ?)",
                       (mid, claim.get("claimId"), time.time()))
            db.execute("INSERT INTO ledger (message_id, event, detail, at) VALUES (?, 'accepted', '201', ?)",
                       (mid, time.time()))
        ch.basic_ack(method.delivery_tag)
    elif status == 422:
        journal(db, mid, "rejected", "422")
        ch.basic_reject(method.delivery_tag, requeue=False)
    elif method.redelivered:
        journal(db, mid, "dead-lettered", str(status))
        ch.basic_reject(method.delivery_tag, requeue=False)
    else:
        journal(db, mid, "requeued", str(status))
        ch.basic_nack(method.delivery_tag, requeue=True)


def main():
    ap = argparse.ArgumentParser(description="claim.in -> claim system")
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()

    db = open_db(os.environ.get("EAI_MQ_DB", DEFAULT_DB))
    conn = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", DEFAULT_URL)))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    stop_at = time.monotonic() + args.max_seconds
    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() > stop_at:
            break
        if method is not None:
            handle(ch, db, args.claim, method, props, body)
    conn.close()
    db.close()


if __name__ == "__main__":
    main()
