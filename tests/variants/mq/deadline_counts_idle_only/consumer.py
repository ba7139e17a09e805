#!/usr/bin/env python3
"""consumer.py --claim URL --max-seconds S [--prefetch N]

claim.in 의 청구를 청구 시스템으로. max-seconds 동안 아무것도 안 오면 끝낸다.
"""

import argparse
import json
import os
import sqlite3
import urllib.error
import urllib.request

import pika


def post(url, body):
    request = urllib.request.Request(
        url.rstrip("/") + "/v1/claims", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        return urllib.request.urlopen(request, timeout=2).status
    except urllib.error.HTTPError as err:
        return err.code
    except Exception as err:  # noqa: BLE001 - 연결 실패, 타임아웃: 일시 오류
        print("error:", err, flush=True)
        return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()

    db = sqlite3.connect(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    db.execute("create table if not exists processed (message_id text primary key)")
    db.commit()

    params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    connection = pika.BlockingConnection(params)
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)

    for method, properties, body in channel.consume("claim.in", inactivity_timeout=args.max_seconds):
        if method is None:  # max-seconds 동안 조용했다: 끝
            break
        message_id = properties.message_id
        if db.execute("select 1 from processed where message_id = ?", (message_id,)).fetchone():
            channel.basic_ack(method.delivery_tag)
            continue
        status = post(args.claim, body)
        if status == 201:
            db.execute("insert or ignore into processed values (?)", (message_id,))
            db.commit()
            channel.basic_ack(method.delivery_tag)
        elif status == 422 or method.redelivered:
            channel.basic_reject(method.delivery_tag, requeue=False)
        else:
            channel.basic_nack(method.delivery_tag, requeue=True)
        print(json.dumps({"id": message_id, "status": status}), flush=True)

    channel.cancel()
    connection.close()


if __name__ == "__main__":
    main()
