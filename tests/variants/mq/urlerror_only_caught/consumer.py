#!/usr/bin/env python3
"""청구 소비자: claim.in -> POST /v1/claims. 201 이면 기록하고 ack."""

import argparse
import logging
import os
import sqlite3
import time
import urllib.error
import urllib.request

import pika

log = logging.getLogger("consumer")


class Processed:
    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS processed (message_id TEXT PRIMARY KEY, at TEXT)")
        self.db.commit()

    def __contains__(self, message_id):
        return (
            self.db.execute("SELECT 1 FROM processed WHERE message_id=?", (message_id,)).fetchone()
            is not None
        )

    def add(self, message_id):
        self.db.execute("INSERT OR IGNORE INTO processed VALUES (?, datetime('now'))", (message_id,))
        self.db.commit()


def forward(url, body):
    request = urllib.request.Request(
        url + "/v1/claims", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=2) as response:
            return response.status
    except urllib.error.HTTPError as e:
        return e.code
    except urllib.error.URLError as e:  # 연결 실패
        log.warning("claim system unreachable: %s", e.reason)
        return None


def main():
    logging.basicConfig(level=logging.INFO)
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()

    processed = Processed(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    connection = pika.BlockingConnection(
        pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    )
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)
    stop = time.monotonic() + args.max_seconds
    for method, properties, body in channel.consume("claim.in", inactivity_timeout=0.5):
        if method is not None:
            message_id = properties.message_id
            if message_id in processed:
                channel.basic_ack(method.delivery_tag)
            else:
                status = forward(args.claim, body)
                if status == 201:
                    processed.add(message_id)
                    channel.basic_ack(method.delivery_tag)
                elif status == 422 or method.redelivered:
                    channel.basic_reject(method.delivery_tag, requeue=False)
                else:
                    channel.basic_nack(method.delivery_tag, requeue=True)
                log.info("%s -> %s", message_id, status)
        if time.monotonic() > stop:
            break
    channel.cancel()
    connection.close()


if __name__ == "__main__":
    main()
