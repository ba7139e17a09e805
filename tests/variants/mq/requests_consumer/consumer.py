#!/usr/bin/env python3
"""claim.in -> claim system, with requests. Ack after 201; 422 -> DLQ; transient: once more."""

import argparse
import logging
import os
import pathlib
import sqlite3
import sys
import time

import pika
import requests

log = logging.getLogger("consumer")

ACK, RETRY, DEAD = "ack", "retry", "dead"


def decide(status, redelivered):
    if status == 201:
        return ACK
    if status == 422:
        return DEAD
    return DEAD if redelivered else RETRY


class Record:
    def __init__(self, path):
        path = pathlib.Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(str(path))
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS processed_messages ("
            " id INTEGER PRIMARY KEY, message_id TEXT UNIQUE NOT NULL, status INTEGER)"
        )
        self.conn.commit()

    def has(self, message_id):
        cur = self.conn.execute("SELECT 1 FROM processed_messages WHERE message_id = ?", (message_id,))
        return cur.fetchone() is not None

    def add(self, message_id, status):
        cur = self.conn.execute(
            "INSERT OR IGNORE INTO processed_messages (message_id, status) VALUES (?, ?)",
            (message_id, status),
        )
        self.conn.commit()
        return cur.rowcount == 1


def call_claim_system(session, url, body):
    try:
        response = session.post(
            url, data=body, timeout=(1.0, 2.5), headers={"Content-Type": "application/json"}
        )
    except requests.RequestException as exc:
        log.warning("no answer from the claim system: %s", exc)
        return None
    return response.status_code


def run(args, record):
    session = requests.Session()
    url = args.claim.rstrip("/") + "/v1/claims"
    params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    connection = pika.BlockingConnection(params)
    try:
        ch = connection.channel()
        ch.basic_qos(prefetch_count=args.prefetch)
        deadline = time.time() + args.max_seconds
        for method, props, body in ch.consume("claim.in", auto_ack=False, inactivity_timeout=0.2):
            if time.time() > deadline:
                break
            if method is None:
                continue
            mid = props.message_id
            if mid and record.has(mid):
                ch.basic_ack(method.delivery_tag)
                log.info("%s duplicate, acked", mid)
                continue
            status = call_claim_system(session, url, body)
            what = decide(status, method.redelivered)
            if what == ACK:
                if mid and not record.add(mid, status):
                    log.info("%s was recorded meanwhile", mid)
                ch.basic_ack(method.delivery_tag)
            elif what == RETRY:
                ch.basic_nack(method.delivery_tag, requeue=True)
            else:
                ch.basic_reject(method.delivery_tag, requeue=False)
            log.info("%s -> %s (%s)", mid, what, status)
        ch.cancel()
    finally:
        connection.close()


def main():
    logging.basicConfig(level=logging.INFO)
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", type=int, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    args = p.parse_args()
    record = Record(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    try:
        run(args, record)
    finally:
        record.conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
