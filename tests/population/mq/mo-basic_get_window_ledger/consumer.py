#!/usr/bin/env python3
"""Steps 4-8 with basic_get.

I pull messages with basic_get and keep at most --prefetch of them unacked (the window).
basic_qos is set as well, but it only limits push consumers, so the window is what keeps
the unacked count at or below --prefetch.
"""
import argparse
import collections
import json
import os
import sqlite3
import sys
import time

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_FILE = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

SCHEMA = """
CREATE TABLE IF NOT EXISTS claims (
    id          INTEGER PRIMARY KEY,
    claim_id    TEXT,
    guid        TEXT,
    amount      INTEGER,
    answer      TEXT,
    accepted_at TEXT DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS handled (
    message_id  TEXT PRIMARY KEY,
    claim_row   INTEGER REFERENCES claims(id)
);
"""


def open_ledger():
    db = sqlite3.connect(DB_FILE)
    db.execute("PRAGMA journal_mode=TRUNCATE")
    db.executescript(SCHEMA)
    return db


def seen(db, message_id):
    return db.execute("SELECT 1 FROM handled WHERE message_id = ?", (message_id,)).fetchone() is not None


def record(db, message_id, body, answer):
    try:
        claim = json.loads(body)
    except ValueError:
        claim = {}
    with db:  # one transaction: the ledger row and the processed mark together
        cur = db.execute(
            "INSERT INTO claims (claim_id, guid, amount, answer) VALUES (?, ?, ?, ?)",
            (claim.get("claimId"), claim.get("guid"), claim.get("amount"), answer),
        )
        db.execute("INSERT OR IGNORE INTO handled (message_id, claim_row) VALUES (?, ?)",
                   (message_id, cur.lastrowid))


def call_claim_system(http, url, body, left):
    try:
        r = http.post(url, data=body, headers={"Content-Type": "application/json"},
                      timeout=(min(2.0, left), min(4.0, left)))
        return r.status_code, r.text
    except requests.RequestException as exc:  # refused, timeout, reset ...
        return None, repr(exc)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    if args.prefetch < 1:
        ap.error("--prefetch must be >= 1")

    deadline = time.monotonic() + args.max_seconds
    url = args.claim.rstrip("/") + "/v1/claims"
    db = open_ledger()
    http = requests.Session()

    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)

    window = collections.deque()  # fetched, not yet acked/nacked
    while True:
        left = deadline - time.monotonic()
        if left <= 0.2:
            break
        while len(window) < args.prefetch:
            method, props, body = ch.basic_get("claim.in", auto_ack=False)
            if method is None:
                break
            window.append((method, props, body))
        if not window:
            conn.sleep(min(0.25, left))  # idle; keeps the connection serviced
            continue

        method, props, body = window.popleft()
        mid = props.message_id
        if mid and seen(db, mid):
            ch.basic_ack(method.delivery_tag)
            print(f"{mid}: duplicate, acked without calling")
            continue

        status, answer = call_claim_system(http, url, body, left)
        if status == 201:
            record(db, mid, body, answer)
            ch.basic_ack(method.delivery_tag)
            print(f"{mid}: accepted")
        elif status == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
            print(f"{mid}: documents missing -> dead letter")
        elif not method.redelivered:
            ch.basic_nack(method.delivery_tag, requeue=True)
            print(f"{mid}: {status or answer} -> back to the queue, once")
        else:
            ch.basic_reject(method.delivery_tag, requeue=False)
            print(f"{mid}: {status or answer} on the second try -> dead letter")

    # whatever is still in the window was never handled: closing gives it back
    conn.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
