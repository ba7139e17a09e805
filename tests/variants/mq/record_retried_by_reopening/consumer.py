#!/usr/bin/env python3
"""청구 소비자: EAI_MQ_DB 를 쓸 때마다 새로 연다. 기록이 잠겨 있으면 닫고 0.5초 쉬었다가 다시."""

import argparse
import os
import sqlite3
import time

import pika
import requests

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def seen(message_id):
    db = sqlite3.connect(DB, timeout=30)
    try:
        return db.execute("SELECT 1 FROM processed WHERE message_id = ?", (message_id,)).fetchone()
    finally:
        db.close()


def record(message_id):
    while True:
        db = sqlite3.connect(DB, timeout=0)
        try:
            db.execute("INSERT OR IGNORE INTO processed VALUES (?)", (message_id,))
            db.commit()
            return
        except sqlite3.OperationalError:
            pass  # 잠겨 있음: 닫고 조금 뒤에 다시
        finally:
            db.close()
        time.sleep(0.5)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, default=30)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()
    db = sqlite3.connect(DB, timeout=30)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")
    db.commit()
    db.close()
    connection = pika.BlockingConnection(pika.URLParameters(URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)
    end = time.monotonic() + args.max_seconds
    for method, props, body in channel.consume("claim.in", inactivity_timeout=0.2):
        if time.monotonic() >= end:
            break
        if method is None:
            continue
        mid = props.message_id
        if mid and seen(mid):
            channel.basic_ack(method.delivery_tag)
            continue
        try:
            code = requests.post(
                args.claim.rstrip("/") + "/v1/claims",
                data=body,
                headers={"Content-Type": "application/json"},
                timeout=2,
            ).status_code
        except requests.RequestException:
            code = None
        if code == 201:
            if mid:
                record(mid)
            channel.basic_ack(method.delivery_tag)
        elif code == 422 or method.redelivered:
            channel.basic_reject(method.delivery_tag, requeue=False)
        else:
            channel.basic_nack(method.delivery_tag, requeue=True)
    channel.cancel()
    connection.close()


if __name__ == "__main__":
    main()
