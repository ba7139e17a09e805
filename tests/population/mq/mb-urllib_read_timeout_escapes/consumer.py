import argparse
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_FILE = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def db_open():
    db = sqlite3.connect(DB_FILE, isolation_level=None)   # autocommit; I BEGIN/COMMIT myself
    db.execute("CREATE TABLE IF NOT EXISTS processed ("
               "message_id TEXT PRIMARY KEY, done_at TEXT NOT NULL)")
    return db


def already_processed(db, message_id):
    return db.execute("SELECT 1 FROM processed WHERE message_id = ?",
                      (message_id,)).fetchone() is not None


def record(db, message_id):
    db.execute("BEGIN IMMEDIATE")
    db.execute("INSERT OR IGNORE INTO processed(message_id, done_at) "
               "VALUES (?, strftime('%Y-%m-%dT%H:%M:%f', 'now'))", (message_id,))
    db.execute("COMMIT")


def call_claim_system(base, body):
    """HTTP status, or None if the claim system could not be reached."""
    req = urllib.request.Request(base.rstrip("/") + "/v1/claims", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status
    except urllib.error.HTTPError as e:
        return e.code
    except urllib.error.URLError as e:   # connection refused, timeouts
        print("claim system unreachable:", e.reason)
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()

    db = db_open()
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)

    stop_at = time.monotonic() + args.max_seconds
    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        if method is not None:
            mid = props.message_id
            if already_processed(db, mid):
                ch.basic_ack(method.delivery_tag)
                print("skip (already processed)", mid)
            else:
                status = call_claim_system(args.claim, body)
                if status == 201:
                    record(db, mid)
                    ch.basic_ack(method.delivery_tag)
                    print("201 ->", mid, "acked")
                elif status == 422:
                    ch.basic_reject(method.delivery_tag, requeue=False)
                    print("422 ->", mid, "dead-lettered")
                elif method.redelivered:
                    ch.basic_reject(method.delivery_tag, requeue=False)
                    print(status, "->", mid, "failed again, dead-lettered")
                else:
                    ch.basic_nack(method.delivery_tag, requeue=True)
                    print(status, "->", mid, "requeued once")
        if time.monotonic() >= stop_at:
            break
    conn.close()
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
