"""consumer.py --claim URL --max-seconds S [--prefetch N]

Message pump: the pika callback only puts deliveries in a local inbox; the main
loop pumps the connection (process_data_events) while the inbox is empty and
works the inbox one message at a time.  Same thread, so acks are safe.
"""
import argparse
import collections
import json
import os
import sqlite3
import time

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
CONNECT_TIMEOUT, READ_TIMEOUT = 2.0, 3.0

ACCEPTED, REJECTED, TRANSIENT = "accepted", "rejected", "transient"


def open_db(path):
    d = os.path.dirname(path)
    if d and not os.path.isdir(d):
        os.makedirs(d)
    db = sqlite3.connect(path, isolation_level=None, timeout=15)
    db.execute("CREATE TABLE IF NOT EXISTS claims_done (message_id TEXT NOT NULL, http_status INTEGER, done_at REAL)")
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS claims_done_mid ON claims_done (message_id)")
    return db


def already_done(db, mid):
    return db.execute("SELECT 1 FROM claims_done WHERE message_id = ? LIMIT 1", (mid,)).fetchone() is not None


def mark_done(db, mid, status):
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("INSERT OR IGNORE INTO claims_done VALUES (?, ?, ?)", (mid, status, time.time()))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def send(claim_url, body, left):
    """Classify the outcome of one POST."""
    try:
        doc = json.loads(body)
    except ValueError:
        return REJECTED, "body is not JSON"
    timeout = (min(CONNECT_TIMEOUT, left), min(READ_TIMEOUT, left))
    try:
        r = requests.post(claim_url, json=doc, timeout=timeout)
    except requests.exceptions.RequestException as exc:
        return TRANSIENT, exc.__class__.__name__
    if r.status_code == 201:
        return ACCEPTED, 201
    if r.status_code == 422:
        return REJECTED, 422
    return TRANSIENT, r.status_code


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", dest="max_seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    o = p.parse_args()

    end = time.monotonic() + o.max_seconds
    claim_url = o.claim.rstrip("/") + "/v1/claims"
    db = open_db(DB)

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=o.prefetch)
    inbox = collections.deque()
    ctag = ch.basic_consume("claim.in", lambda c, m, pr, b: inbox.append((m, pr, b)), auto_ack=False)

    while True:
        left = end - time.monotonic()
        if left <= 0:
            break
        if not inbox:
            conn.process_data_events(time_limit=min(0.3, left))
            continue
        method, props, body = inbox.popleft()
        mid = props.message_id
        if mid and already_done(db, mid):
            ch.basic_ack(method.delivery_tag)
            print("skip (seen)", mid)
            continue
        outcome, detail = send(claim_url, body, max(left, 0.1))
        print(mid, outcome, detail, "redelivered=%s" % method.redelivered, flush=True)
        if outcome == ACCEPTED:
            if mid:
                mark_done(db, mid, 201)
            ch.basic_ack(method.delivery_tag)
        elif outcome == REJECTED or method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)

    ch.basic_cancel(ctag)
    while inbox:  # taken from the broker but never worked on: give them back
        ch.basic_nack(inbox.popleft()[0].delivery_tag, requeue=True)
    conn.close()
    db.close()


if __name__ == "__main__":
    main()
