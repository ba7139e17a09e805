#!/usr/bin/env python3
"""소비자 — 처리 기록은 key-value 테이블 한 줄(JSON 목록)."""

import argparse
import json
import os
import sqlite3
import time
import urllib.error
import urllib.request

import pika


class Memory:
    """processed -> ["guid", ...] 한 줄. 201 마다 다시 써서 commit."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        self.db.execute("INSERT OR IGNORE INTO kv (k, v) VALUES ('processed', '[]')")
        self.db.commit()

    def ids(self):
        return set(json.loads(self.db.execute("SELECT v FROM kv WHERE k = 'processed'").fetchone()[0]))

    def remember(self, message_id):
        ids = self.ids() | {message_id}
        self.db.execute("UPDATE kv SET v = ? WHERE k = 'processed'", (json.dumps(sorted(ids)),))
        self.db.commit()


def claim_system(url, body):
    req = urllib.request.Request(url + "/v1/claims", body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=2.5) as resp:
            return resp.getcode()
    except urllib.error.HTTPError as err:
        return err.code
    except OSError as err:  # URLError, 시간 초과, 연결 끊김
        print("claim system:", err, flush=True)
        return -1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default="5")
    args = parser.parse_args()

    memory = Memory(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    connection = pika.BlockingConnection(
        pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    )
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)

    def on_message(ch, method, properties, body):
        if properties.message_id in memory.ids():
            ch.basic_ack(method.delivery_tag)
            return
        code = claim_system(args.claim, body)
        if code == 201:
            memory.remember(properties.message_id)
            ch.basic_ack(method.delivery_tag)
        elif code == 422 or method.redelivered:
            ch.basic_nack(method.delivery_tag, requeue=False)
        else:
            ch.basic_nack(method.delivery_tag, requeue=True)
        print(properties.message_id, code, flush=True)
        if time.monotonic() > deadline:  # 메시지가 계속 오면 call_later 는 차례가 안 온다
            ch.stop_consuming()

    deadline = time.monotonic() + args.max_seconds
    channel.basic_consume(queue="claim.in", on_message_callback=on_message)
    connection.call_later(args.max_seconds, channel.stop_consuming)
    channel.start_consuming()
    connection.close()


if __name__ == "__main__":
    main()
