#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""claim.in 소비자: 청구 시스템에 POST 하고 201 이면 기록 후 ack.

  python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 30 [--prefetch 5]

결과별 처리
  201            -> SQLite 에 기록, 그 다음 ack
  422            -> 업무 거절, 되돌리지 않음 (nack requeue=False -> DLX)
  503/연결실패/타임아웃/그 밖 -> 처음이면 requeue, redelivered 면 DLX
이미 기록된 message_id -> 청구 시스템을 부르지 않고 ack 만.
"""
import argparse
import json
import os
import sqlite3
import sys
import time

import pika
import requests

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"
DEFAULT_DB = "/root/eaimw/mq/processed.db"
QUEUE = "claim.in"

CONNECT_TIMEOUT = 2.0
READ_TIMEOUT = 5.0  # 청구 시스템이 멈춰도 이 이상은 안 기다린다


class ProcessedStore:
    """처리 기록. processed 테이블만 중복 판단에 쓰고, attempts 는 내가 보려고 남기는 로그."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.executescript(
            """
            CREATE TABLE IF NOT EXISTS processed (
                message_id   TEXT PRIMARY KEY,
                status       INTEGER NOT NULL,
                processed_at TEXT NOT NULL DEFAULT (datetime('now'))
            );
            CREATE TABLE IF NOT EXISTS attempts (
                id         INTEGER PRIMARY KEY AUTOINCREMENT,
                message_id TEXT,
                outcome    TEXT,
                at         TEXT NOT NULL DEFAULT (datetime('now'))
            );
            """
        )
        self.db.commit()

    def seen(self, message_id):
        row = self.db.execute(
            "SELECT 1 FROM processed WHERE message_id = ?", (message_id,)
        ).fetchone()
        return row is not None

    def mark_done(self, message_id, status):
        with self.db:  # with 블록이 끝나면 commit
            self.db.execute(
                "INSERT OR REPLACE INTO processed (message_id, status) VALUES (?, ?)",
                (message_id, status),
            )

    def log_attempt(self, message_id, outcome):
        # 실패도 여기 남지만 processed 에는 안 들어간다 (성공만 기억)
        with self.db:
            self.db.execute(
                "INSERT INTO attempts (message_id, outcome) VALUES (?, ?)",
                (message_id, outcome),
            )

    def close(self):
        self.db.close()


class ClaimConsumer:
    def __init__(self, amqp_url, claim_base, max_seconds, prefetch, store):
        self.amqp_url = amqp_url
        self.endpoint = claim_base.rstrip("/") + "/v1/claims"
        self.max_seconds = max_seconds
        self.prefetch = prefetch
        self.store = store
        self.http = requests.Session()
        self.deadline = None
        self.channel = None
        self.stats = {"ack": 0, "dup": 0, "requeue": 0, "dead": 0}

    # --- 청구 시스템 호출 ---------------------------------------------------
    def post_claim(self, body):
        """상태 코드를 돌려준다. 연결 실패/타임아웃이면 None (일시 오류)."""
        left = self.deadline - time.monotonic()
        read_timeout = max(0.5, min(READ_TIMEOUT, left))
        try:
            r = self.http.post(
                self.endpoint,
                data=body,
                headers={"Content-Type": "application/json"},
                timeout=(CONNECT_TIMEOUT, read_timeout),
            )
            return r.status_code
        except requests.RequestException as e:
            print("  청구 시스템 호출 실패: %s" % type(e).__name__, flush=True)
            return None

    # --- 메시지 콜백 -------------------------------------------------------
    def on_message(self, ch, method, props, body):
        tag = method.delivery_tag
        mid = props.message_id
        if not mid:  # publish.py 는 항상 넣지만 혹시 몰라 본문 guid 로
            try:
                mid = str(json.loads(body).get("guid"))
            except ValueError:
                mid = None

        if time.monotonic() >= self.deadline:
            # 시간이 다 됐으면 손대지 않고 돌려 놓는다
            ch.basic_nack(tag, requeue=True)
            return

        if mid and self.store.seen(mid):
            print("중복 %s -> 호출 없이 ack" % mid, flush=True)
            ch.basic_ack(tag)
            self.stats["dup"] += 1
            return

        status = self.post_claim(body)
        self.store.log_attempt(mid, str(status))

        if status == 201:
            if mid:
                self.store.mark_done(mid, status)  # 기록 먼저
            ch.basic_ack(tag)  # 그 다음 ack
            self.stats["ack"] += 1
            print("201 %s ack" % mid, flush=True)
        elif status == 422:
            # 업무 거절: 백 번 보내도 같다 -> 되돌리지 않고 DLX 로
            ch.basic_nack(tag, requeue=False)
            self.stats["dead"] += 1
            print("422 %s -> DLX" % mid, flush=True)
        elif method.redelivered:
            # 한 번 되돌렸는데 또 실패 -> DLX
            ch.basic_nack(tag, requeue=False)
            self.stats["dead"] += 1
            print("%s %s (재배달 후 또 실패) -> DLX" % (status, mid), flush=True)
        else:
            ch.basic_nack(tag, requeue=True)
            self.stats["requeue"] += 1
            print("%s %s -> 한 번 되돌림" % (status, mid), flush=True)

    def time_up(self):
        print("--max-seconds 경과, 소비 종료", flush=True)
        self.channel.stop_consuming()  # 아직 처리 안 한 것은 브로커로 돌아간다

    def run(self):
        self.deadline = time.monotonic() + self.max_seconds
        conn = pika.BlockingConnection(pika.URLParameters(self.amqp_url))
        try:
            self.channel = conn.channel()
            self.channel.basic_qos(prefetch_count=self.prefetch)  # 소비 시작 전에!
            self.channel.basic_consume(QUEUE, self.on_message, auto_ack=False)
            conn.call_later(self.max_seconds, self.time_up)
            self.channel.start_consuming()
        finally:
            if conn.is_open:
                conn.close()
        print("끝:", json.dumps(self.stats), flush=True)


def parse_args():
    p = argparse.ArgumentParser(description="claim.in consumer")
    p.add_argument("--claim", required=True, help="청구 시스템 URL (예: http://127.0.0.1:9202)")
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    return p.parse_args()


def main():
    args = parse_args()
    store = ProcessedStore(os.environ.get("EAI_MQ_DB", DEFAULT_DB))
    try:
        ClaimConsumer(
            os.environ.get("EAI_AMQP_URL", DEFAULT_URL),
            args.claim,
            args.max_seconds,
            args.prefetch,
            store,
        ).run()
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
