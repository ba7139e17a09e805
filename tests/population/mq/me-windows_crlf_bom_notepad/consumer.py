# -*- coding: utf-8 -*-
# Step 4-8 - consumer. Usage: python consumer.py --claim http://127.0.0.1:9202 --max-seconds 30
import argparse
import os
import sqlite3
import time
from pathlib import Path

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_FILE = Path(os.environ.get("EAI_MQ_DB", str(Path("/root") / "eaimw" / "mq" / "processed.db")))

CONNECT_TIMEOUT = 2.0
READ_TIMEOUT = 5.0


def open_db():
    DB_FILE.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(DB_FILE))
    db.execute(
        "CREATE TABLE IF NOT EXISTS processed_messages ("
        "  message_id TEXT NOT NULL UNIQUE,"
        "  claim_id TEXT,"
        "  processed_utc TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))"
        ")"
    )
    db.commit()
    return db


def is_processed(db, message_id):
    cur = db.execute("SELECT COUNT(*) FROM processed_messages WHERE message_id = ?", (message_id,))
    return cur.fetchone()[0] > 0


def mark_processed(db, message_id, body):
    claim_id = None
    try:
        import json
        claim_id = json.loads(body.decode("utf-8")).get("claimId")
    except Exception:
        pass
    db.execute(
        "INSERT OR IGNORE INTO processed_messages (message_id, claim_id) VALUES (?, ?)",
        (message_id, claim_id),
    )
    db.commit()


def send_claim(base_url, body, seconds_left):
    read_timeout = max(0.2, min(READ_TIMEOUT, seconds_left))
    url = base_url.rstrip("/") + "/v1/claims"
    try:
        r = requests.post(
            url,
            data=body,
            headers={"Content-Type": "application/json"},
            timeout=(min(CONNECT_TIMEOUT, read_timeout), read_timeout),
        )
        return r.status_code
    except requests.exceptions.RequestException as e:
        print("Claim system not reachable: " + type(e).__name__)
        return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()

    stop_at = time.time() + args.max_seconds
    db = open_db()

    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)

    for method, properties, body in channel.consume("claim.in", auto_ack=False, inactivity_timeout=0.5):
        if time.time() >= stop_at:
            break
        if method is None:
            continue

        message_id = properties.message_id
        if message_id and is_processed(db, message_id):
            print("Already processed, ack only: " + message_id)
            channel.basic_ack(delivery_tag=method.delivery_tag)
            continue

        status = send_claim(args.claim, body, stop_at - time.time())
        print("%s -> %s" % (message_id, status))

        if status == 201:
            if message_id:
                mark_processed(db, message_id, body)
            channel.basic_ack(delivery_tag=method.delivery_tag)
        elif status == 422:
            channel.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
        elif status is None or status == 503:
            if method.redelivered:
                channel.basic_reject(delivery_tag=method.delivery_tag, requeue=False)
            else:
                channel.basic_reject(delivery_tag=method.delivery_tag, requeue=True)
        else:
            channel.basic_nack(delivery_tag=method.delivery_tag, requeue=True)

    channel.cancel()
    connection.close()
    db.close()


if __name__ == "__main__":
    main()
