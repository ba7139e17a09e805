#!/usr/bin/env python3
"""claim.in 소비자 (http.client 로 청구 시스템 호출)."""

import argparse
import http.client
import os
import sqlite3
import time
from urllib.parse import urlparse

import pika

AMQP = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DBFILE = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


def post_claim(base, body):
    target = urlparse(base)
    conn = http.client.HTTPConnection(target.hostname, target.port, timeout=2)
    # str 본문을 그대로 주면 latin-1 로 인코딩하다 UnicodeEncodeError 가 나서 ASCII 로 바꿈
    text = body.decode("utf-8").encode("ascii", errors="replace")
    try:
        conn.request("POST", "/v1/claims", body=text, headers={"Content-Type": "application/json"})
        return conn.getresponse().status
    except (OSError, http.client.HTTPException) as e:
        print("call failed:", repr(e), flush=True)
        return None
    finally:
        conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()

    db = sqlite3.connect(DBFILE)
    db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY)")
    db.commit()
    connection = pika.BlockingConnection(pika.URLParameters(AMQP))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)
    deadline = time.monotonic() + args.max_seconds
    for method, props, body in channel.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() >= deadline:
            break
        if method is None:
            continue
        mid = props.message_id
        if db.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone():
            channel.basic_ack(method.delivery_tag)
            continue
        status = post_claim(args.claim, body)
        if status == 201:
            with db:
                db.execute("INSERT OR IGNORE INTO processed VALUES (?)", (mid,))
            channel.basic_ack(method.delivery_tag)
        elif status == 422 or method.redelivered:
            channel.basic_reject(method.delivery_tag, requeue=False)
        else:
            channel.basic_nack(method.delivery_tag, requeue=True)
    channel.cancel()
    connection.close()
    db.close()


if __name__ == "__main__":
    main()
