"""Steps 4-8: consumer.py --claim URL --max-seconds S [--prefetch N]

Like a JMS CLIENT_ACKNOWLEDGE session: a message is only acknowledged once we are done
with it, and the done-log (SQLite) makes sure we never handle the same message twice.
"""
import argparse
import os
import sqlite3
import time

import pika
import requests

AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
TIMEOUT = 3


def open_db():
    db = sqlite3.connect(DB_PATH)
    db.execute("CREATE TABLE IF NOT EXISTS handled (message_id TEXT PRIMARY KEY, result TEXT, handled_at TEXT)")
    db.commit()
    return db


def already_handled(db, message_id):
    return db.execute("SELECT 1 FROM handled WHERE message_id = ?", (message_id,)).fetchone() is not None


def mark_handled(db, message_id, result):
    db.execute("INSERT OR REPLACE INTO handled VALUES (?, ?, datetime('now'))", (message_id, result))
    db.commit()


def call_claim_system(base_url, body, timeout):
    try:
        return requests.post(base_url + "/v1/claims", data=body,
                             headers={"Content-Type": "application/json"}, timeout=timeout).status_code
    except requests.exceptions.RequestException as e:
        print("  claim system error:", e.__class__.__name__)
        return None


def decide(status, redelivered):
    """-> 'ack', 'requeue' or 'dead'"""
    if status == 201:
        return "ack"
    if status == 422:
        return "dead"  # business rejection, never requeue
    if redelivered:
        return "dead"  # transient error that already had its second chance
    return "requeue"


def finish(channel, db, method, message_id, decision):
    """Settle the message with the broker. Anything that is not going back to the
    queue is finished for good, so it goes into the done-log first."""
    if decision != "requeue":
        mark_handled(db, message_id, decision)
    if decision == "ack":
        channel.basic_ack(method.delivery_tag)
    elif decision == "dead":
        channel.basic_reject(method.delivery_tag, requeue=False)
    else:
        channel.basic_nack(method.delivery_tag, requeue=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()
    base_url = args.claim.rstrip("/")

    db = open_db()
    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)
    deadline = time.monotonic() + args.max_seconds

    for method, props, body in channel.consume("claim.in", inactivity_timeout=0.5):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        if method is None:
            continue
        message_id = props.message_id
        if already_handled(db, message_id):
            print(message_id, "already handled -> ack")
            channel.basic_ack(method.delivery_tag)
            continue
        status = call_claim_system(base_url, body, min(TIMEOUT, remaining))
        decision = decide(status, method.redelivered)
        print(message_id, status, "redelivered" if method.redelivered else "", "->", decision)
        finish(channel, db, method, message_id, decision)

    channel.cancel()
    connection.close()
    db.close()


if __name__ == "__main__":
    main()
