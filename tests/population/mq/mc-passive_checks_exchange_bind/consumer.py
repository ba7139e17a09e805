#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

claim.in -> POST URL/v1/claims. 201: record, ack. 422: reject -> DLX.
503 / connection failure / timeout: requeue once, DLX when it fails again (redelivered).
Already recorded message_id: ack without calling the claim system."""
import argparse
import json
import os
import sqlite3
import sys
import time

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
TIMEOUT = (2.0, 4.0)  # connect, read


def open_db(path):
    db = sqlite3.connect(path)
    db.execute("""CREATE TABLE IF NOT EXISTS claims_done (
                    message_id  TEXT PRIMARY KEY,
                    claim_id    TEXT,
                    amount      INTEGER,
                    answer      TEXT,
                    done_at     REAL)""")
    db.commit()
    return db


def post(session, url, method, props, body):
    headers = {
        "Content-Type": "application/json",
        "X-Message-Id": props.message_id or "",
        "X-Redelivered": "1" if method.redelivered else "0",
    }
    try:
        r = session.post(url, data=body, headers=headers, timeout=TIMEOUT)
        return r.status_code, r.text
    except requests.ConnectionError as e:
        return "connection-failed", str(e)[:80]
    except requests.Timeout:
        return "timeout", ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", required=True, type=float)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    if a.prefetch < 1:
        ap.error("--prefetch must be >= 1")

    url = a.claim.rstrip("/") + "/v1/claims"
    deadline = time.monotonic() + a.max_seconds
    db = open_db(DB)
    session = requests.Session()

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    backlog = ch.queue_declare("claim.in", passive=True).method.message_count
    print(f"claim.in backlog {backlog}, prefetch {a.prefetch}, {a.max_seconds}s", flush=True)
    ch.basic_qos(prefetch_count=a.prefetch)

    for method, props, body in ch.consume("claim.in", auto_ack=False, inactivity_timeout=1.0):
        if time.monotonic() >= deadline:
            break
        if method is None:
            continue
        mid = props.message_id
        tag = method.delivery_tag
        if mid and db.execute("SELECT 1 FROM claims_done WHERE message_id=?", (mid,)).fetchone():
            ch.basic_ack(tag)
            print(f"{mid} duplicate -> ack", flush=True)
            continue
        status, text = post(session, url, method, props, body)
        if status == 201:
            try:
                c = json.loads(body)
            except ValueError:
                c = {}
            with db:
                db.execute("INSERT OR IGNORE INTO claims_done VALUES (?,?,?,?,?)",
                           (mid, c.get("claimId"), c.get("amount"), text, time.time()))
            ch.basic_ack(tag)
            verdict = "ack"
        elif status == 422:
            ch.basic_reject(tag, requeue=False)
            verdict = "reject -> DLX (documents missing)"
        elif method.redelivered:
            ch.basic_reject(tag, requeue=False)
            verdict = "failed again -> DLX"
        else:
            ch.basic_nack(tag, requeue=True)
            verdict = "requeue once"
        print(f"{mid} {status} {verdict}", flush=True)

    ch.cancel()
    conn.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
