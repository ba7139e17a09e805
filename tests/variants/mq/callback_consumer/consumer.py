#!/usr/bin/env python3
"""청구 소비자 (콜백 방식): claim.in 의 청구를 청구 시스템의 POST /v1/claims 로 넘긴다.

python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 30 [--prefetch 5]
"""

import argparse
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_FILE = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


class ClaimForwarder:
    def __init__(self, claim_url, db_file, stop_at):
        self.endpoint = claim_url.rstrip("/") + "/v1/claims"
        self.stop_at = stop_at
        folder = os.path.dirname(db_file)
        if folder:
            os.makedirs(folder, exist_ok=True)
        self.db = sqlite3.connect(db_file)
        self.db.execute("CREATE TABLE IF NOT EXISTS seen (mid TEXT PRIMARY KEY, at REAL)")
        self.db.commit()

    def already_done(self, mid):
        if not mid:
            return False
        return self.db.execute("SELECT count(*) FROM seen WHERE mid = ?", (mid,)).fetchone()[0] > 0

    def remember(self, mid):
        if mid:
            self.db.execute("INSERT OR REPLACE INTO seen (mid, at) VALUES (?, ?)", (mid, time.time()))
            self.db.commit()

    def post(self, body):
        req = urllib.request.Request(
            self.endpoint, data=body, method="POST", headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=3) as resp:
                return resp.status
        except urllib.error.HTTPError as e:
            return e.code
        except Exception as e:  # 연결 거부, 시간 초과 ... 모두 일시 오류
            print(f"청구 시스템 호출 실패: {e!r}", file=sys.stderr, flush=True)
            return None

    def on_message(self, ch, method, props, body):
        self.handle(ch, method, props, body)
        # 큐가 바쁘면 pika 는 메시지가 계속 오는 동안 process_data_events 에서 돌아오지 않는다:
        # 시간 확인은 콜백 안에서도 해야 한다.
        if time.monotonic() >= self.stop_at:
            ch.stop_consuming()

    def handle(self, ch, method, props, body):
        mid = props.message_id
        if self.already_done(mid):
            print(f"{mid}: 이미 처리함, ack 만", flush=True)
            ch.basic_ack(delivery_tag=method.delivery_tag)
            return
        status = self.post(body)
        if status == 201:
            self.remember(mid)
            ch.basic_ack(delivery_tag=method.delivery_tag)
            print(f"{mid}: 201, ack", flush=True)
        elif status == 422:
            # 업무 거절: 되돌리지 않는다 -> DLX
            ch.basic_nack(delivery_tag=method.delivery_tag, requeue=False)
            print(f"{mid}: 422, DLQ 로", flush=True)
        elif method.redelivered:
            ch.basic_nack(delivery_tag=method.delivery_tag, requeue=False)
            print(f"{mid}: 재배달인데 또 실패({status}), DLQ 로", flush=True)
        else:
            ch.basic_nack(delivery_tag=method.delivery_tag, requeue=True)
            print(f"{mid}: 일시 오류({status}), 한 번 되돌림", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()

    stop_at = time.monotonic() + args.max_seconds
    forwarder = ClaimForwarder(args.claim, DB_FILE, stop_at)
    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)  # 소비 시작 전에!
    tag = channel.basic_consume(queue="claim.in", on_message_callback=forwarder.on_message, auto_ack=False)
    while True:
        left = stop_at - time.monotonic()
        if left <= 0:
            break
        connection.process_data_events(time_limit=min(left, 0.5))
    channel.basic_cancel(tag)
    connection.close()
    forwarder.db.close()
    print("끝", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
