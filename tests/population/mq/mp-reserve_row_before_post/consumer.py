#!/usr/bin/env python3
"""Claim consumer.

Dedup: the message_id is written to SQLite *before* the claim system is called
(INSERT OR IGNORE; rowcount 0 means it is already there -> just ack), so two copies of the
same message can never both be POSTed. If the call does not end in 201 the row is deleted
again, so only successes stay recorded (a dead-lettered claim can come back later).
"""
import argparse
import os
import sqlite3
import time
import urllib.error
import urllib.request

import pika


def post(url, body):
    req = urllib.request.Request(url, data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=4) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:  # refused / timeout / reset
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    a = ap.parse_args()
    url = a.claim.rstrip("/") + "/v1/claims"

    db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    db.execute("CREATE TABLE IF NOT EXISTS processed ("
               "message_id TEXT PRIMARY KEY, state TEXT NOT NULL, at REAL NOT NULL)")
    db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(
        os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)
    stop = time.monotonic() + a.max_seconds

    for m, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() >= stop:
            break
        if m is None:
            continue
        mid = props.message_id
        cur = db.execute("INSERT OR IGNORE INTO processed VALUES (?, 'sending', ?)", (mid, time.time()))
        db.commit()
        if cur.rowcount == 0:
            ch.basic_ack(m.delivery_tag)  # already processed
            continue

        status = post(url, body)
        if status == 201:
            db.execute("UPDATE processed SET state = 'done', at = ? WHERE message_id = ?", (time.time(), mid))
            db.commit()
            ch.basic_ack(m.delivery_tag)
            continue

        db.execute("DELETE FROM processed WHERE message_id = ?", (mid,))  # not a success
        db.commit()
        if status == 422:
            ch.basic_reject(m.delivery_tag, requeue=False)
        elif m.redelivered:
            ch.basic_reject(m.delivery_tag, requeue=False)
        else:
            ch.basic_nack(m.delivery_tag, requeue=True)

    conn.close()
    db.close()


if __name__ == "__main__":
    main()
