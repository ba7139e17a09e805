#!/usr/bin/env python3
"""청구 소비자 (requests 사용): 201 이면 기록 후 ack, 422 는 DLQ, 일시 오류는 한 번 더."""

import argparse
import os
import sqlite3
import time

import pika
import requests

DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    args = p.parse_args()

    db = sqlite3.connect(DB)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")
    db.commit()

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)
    end = time.time() + args.max_seconds
    for method, props, body in ch.consume("claim.in", inactivity_timeout=1):
        if time.time() > end:
            break
        if method is None:
            continue
        mid = props.message_id
        if db.execute("SELECT 1 FROM processed WHERE message_id=?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            continue
        try:
            r = requests.post(
                args.claim + "/v1/claims",
                data=body,
                headers={"Content-Type": "application/json"},
                timeout=3,
            )
            r.raise_for_status()
        except (requests.ConnectionError, requests.Timeout):
            # 청구 시스템 다운/타임아웃: 한 번만 다시
            if method.redelivered:
                ch.basic_reject(method.delivery_tag, requeue=False)
            else:
                ch.basic_nack(method.delivery_tag, requeue=True)
            continue
        if r.status_code == 201:
            db.execute("INSERT OR IGNORE INTO processed VALUES (?)", (mid,))
            db.commit()
            ch.basic_ack(method.delivery_tag)
        elif r.status_code == 422:
            ch.basic_reject(method.delivery_tag, requeue=False)
        elif method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
    ch.cancel()
    conn.close()


if __name__ == "__main__":
    main()
