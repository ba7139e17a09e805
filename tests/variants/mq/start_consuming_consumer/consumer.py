#!/usr/bin/env python3
# 소비자: start_consuming 으로 돌고, --max-seconds 뒤 call_later 로 stop_consuming.
import argparse
import http.client
import os
import sqlite3
import time
import urllib.parse

import pika

AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
TIMEOUT = 2


def post_claim(base, body):
    u = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=TIMEOUT)
    try:
        conn.request(
            "POST", u.path.rstrip("/") + "/v1/claims", body=body, headers={"Content-Type": "application/json"}
        )
        return conn.getresponse().status
    except (OSError, http.client.HTTPException) as e:
        print("claim system error:", repr(e), flush=True)
        return None
    finally:
        conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    opts = ap.parse_args()

    os.makedirs(os.path.dirname(os.path.abspath(DB_PATH)), exist_ok=True)
    db = sqlite3.connect(DB_PATH, isolation_level=None)  # autocommit: 곧바로 디스크에
    db.execute("CREATE TABLE IF NOT EXISTS done (id TEXT PRIMARY KEY)")

    def on_claim(ch, method, props, body):
        mid = props.message_id
        if mid and db.execute("SELECT id FROM done WHERE id = ?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            return
        code = post_claim(opts.claim, body)
        if code == 201:
            if mid:
                db.execute("INSERT OR IGNORE INTO done (id) VALUES (?)", (mid,))
            ch.basic_ack(method.delivery_tag)
        elif code == 422 or method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_reject(method.delivery_tag, requeue=True)
        print(mid, code, "redelivered" if method.redelivered else "", flush=True)
        if time.monotonic() >= stop_at:  # 바쁜 큐에서는 call_later 가 돌 틈이 없다
            ch.stop_consuming()

    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=opts.prefetch)
    channel.basic_consume("claim.in", on_claim)
    stop_at = time.monotonic() + opts.max_seconds
    connection.call_later(opts.max_seconds, channel.stop_consuming)  # 조용할 때
    try:
        channel.start_consuming()
    finally:
        connection.close()
        db.close()


if __name__ == "__main__":
    main()
