#!/usr/bin/env python3
"""청구 소비자: 같은 트랜잭션 안에서 확인하고 기록한다(ack 는 COMMIT 전에)."""

import argparse
import os
import sqlite3
import time

import pika
import requests

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

SCHEMA = """
CREATE TABLE IF NOT EXISTS claims_done (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    msg_id TEXT NOT NULL UNIQUE,
    answer INTEGER NOT NULL,
    done_at TEXT NOT NULL DEFAULT (datetime('now'))
)
"""


def post(session, base, body):
    try:
        return session.post(
            f"{base}/v1/claims", data=body, headers={"Content-Type": "application/json"}, timeout=2
        ).status_code
    except requests.exceptions.RequestException as exc:
        print("transient:", type(exc).__name__, flush=True)
        return None


def handle(db, session, base, ch, method, props, body):
    """확인·POST·기록을 한 트랜잭션으로."""
    db.execute("BEGIN IMMEDIATE")
    try:
        seen = db.execute("SELECT 1 FROM claims_done WHERE msg_id = ?", (props.message_id,)).fetchone()
        if seen:
            db.execute("COMMIT")
            ch.basic_ack(method.delivery_tag)
            return "dup"
        status = post(session, base, body)
        if status == 201:
            db.execute("INSERT INTO claims_done (msg_id, answer) VALUES (?, ?)", (props.message_id, status))
            ch.basic_ack(method.delivery_tag)  # 기록은 이미 했으니(커밋 전) 먼저 ack
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    if status == 201:
        pass
    elif status == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
    elif method.redelivered:
        ch.basic_reject(method.delivery_tag, requeue=False)
    else:
        ch.basic_nack(method.delivery_tag, requeue=True)
    return status


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=int, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()
    base = args.claim.rstrip("/")

    db = sqlite3.connect(DB_PATH, isolation_level=None)  # BEGIN/COMMIT 는 직접
    db.execute(SCHEMA)
    session = requests.Session()
    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    ch = connection.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    finish = time.monotonic() + args.max_seconds
    for method, props, body in ch.consume("claim.in", inactivity_timeout=1):
        if time.monotonic() >= finish:
            break
        if method is None:
            continue
        print(props.message_id, handle(db, session, base, ch, method, props, body), flush=True)
    ch.cancel()
    connection.close()
    db.close()


if __name__ == "__main__":
    main()
