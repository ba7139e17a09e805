"""python3 consumer.py --claim URL --max-seconds S [--prefetch N]

Performance notes
- One requests.Session (connection pooling) for all POSTs.
- SQLite in WAL mode, one connection for the whole run.
- The processed ids are loaded into a set once at start-up, so the duplicate check is an
  in-memory lookup instead of a SELECT per message.
"""
import argparse
import logging
import os
import sqlite3
import time

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 3.0

log = logging.getLogger("claims")


def open_db(path):
    db = sqlite3.connect(path, timeout=15)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE IF NOT EXISTS processed ("
               "message_id TEXT NOT NULL UNIQUE, processed_at REAL NOT NULL)")
    db.commit()
    return db


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)

    deadline = time.monotonic() + args.max_seconds
    endpoint = args.claim.rstrip("/") + "/v1/claims"
    session = requests.Session()
    db = open_db(DB_PATH)
    processed = {row[0] for row in db.execute("SELECT message_id FROM processed")}
    log.info("%d processed ids loaded", len(processed))

    def handle(ch, method, props, body):
        left = deadline - time.monotonic()
        if left <= 0:
            return  # stays unacked, back to the queue when the connection closes
        tag, mid = method.delivery_tag, props.message_id

        if mid in processed:
            ch.basic_ack(tag)
            log.info("%s duplicate -> ack", mid)
            return

        try:
            status = session.post(endpoint, data=body,
                                  headers={"Content-Type": "application/json"},
                                  timeout=max(0.1, min(HTTP_TIMEOUT, left))).status_code
        except requests.RequestException as exc:
            status = None
            log.info("%s no answer: %s", mid, exc.__class__.__name__)
            if time.monotonic() >= deadline:
                ch.basic_nack(tag, requeue=True)  # out of time, not the claim's fault
                return

        if status == 201:
            db.execute("INSERT OR IGNORE INTO processed VALUES (?, ?)", (mid, time.time()))
            db.commit()
            ch.basic_ack(tag)
            log.info("%s 201 -> ack", mid)
        elif status == 422:
            ch.basic_reject(tag, requeue=False)
            log.info("%s 422 -> dead letter", mid)
        elif method.redelivered:
            ch.basic_reject(tag, requeue=False)
            log.info("%s %s again -> dead letter", mid, status)
        else:
            ch.basic_nack(tag, requeue=True)
            log.info("%s %s -> requeue", mid, status)

    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    ch.basic_consume("claim.in", handle, auto_ack=False)
    while time.monotonic() < deadline:
        conn.process_data_events(time_limit=max(0.0, min(0.5, deadline - time.monotonic())))
    conn.close()
    db.close()
    log.info("done")


if __name__ == "__main__":
    main()
