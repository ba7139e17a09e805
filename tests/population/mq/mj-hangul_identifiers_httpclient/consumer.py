#!/usr/bin/env python3
# consumer.py --claim <청구시스템URL> --max-seconds <초> [--prefetch N]
# 청구 시스템 호출은 표준 라이브러리 http.client 로 한다.
import argparse
import http.client
import os
import sqlite3
import sys
import time
from urllib.parse import urlsplit

import pika

주소 = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
기록파일 = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

일시오류 = object()  # 503·연결 실패·시간 초과 등, 상태 코드 대신 돌려주는 표시


class 청구시스템:
    def __init__(self, 기본주소):
        나눔 = urlsplit(기본주소)
        self.호스트 = 나눔.hostname
        self.포트 = 나눔.port or (443 if 나눔.scheme == "https" else 80)
        self.https = 나눔.scheme == "https"
        self.경로 = 나눔.path.rstrip("/") + "/v1/claims"

    def 보내기(self, 본문, 제한시간):
        종류 = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        연결 = 종류(self.호스트, self.포트, timeout=제한시간)
        try:
            연결.request("POST", self.경로, body=본문,
                       headers={"Content-Type": "application/json; charset=utf-8"})
            응답 = 연결.getresponse()
            응답.read()
            return 응답.status
        except (OSError, http.client.HTTPException) as 오류:  # 거부·끊김·socket.timeout
            print(f"  일시 오류: {오류!r}", file=sys.stderr, flush=True)
            return 일시오류
        finally:
            연결.close()


class 처리기록:
    def __init__(self, 경로):
        self.db = sqlite3.connect(경로, isolation_level=None)  # autocommit: 문장마다 바로 기록
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute('CREATE TABLE IF NOT EXISTS "처리완료" ("메시지ID" TEXT PRIMARY KEY, "처리시각" TEXT NOT NULL)')

    def 있나(self, 메시지id):
        return self.db.execute('SELECT 1 FROM "처리완료" WHERE "메시지ID" = ?', (메시지id,)).fetchone() is not None

    def 남기기(self, 메시지id):
        self.db.execute('INSERT OR IGNORE INTO "처리완료" VALUES (?, strftime(\'%Y-%m-%dT%H:%M:%fZ\', \'now\'))',
                        (메시지id,))

    def 닫기(self):
        self.db.close()


def main():
    인자 = argparse.ArgumentParser()
    인자.add_argument("--claim", required=True)
    인자.add_argument("--max-seconds", type=float, required=True)
    인자.add_argument("--prefetch", type=int, default=5)
    설정 = 인자.parse_args()

    마감 = time.monotonic() + 설정.max_seconds
    청구 = 청구시스템(설정.claim)
    기록 = 처리기록(기록파일)
    집계 = {"ack": 0, "중복": 0, "DLQ": 0, "되돌림": 0}

    연결 = pika.BlockingConnection(pika.URLParameters(주소))
    채널 = 연결.channel()
    채널.basic_qos(prefetch_count=설정.prefetch)   # 소비 시작 전에

    for 배달, 속성, 본문 in 채널.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() >= 마감:
            break
        if 배달 is None:
            continue
        메시지id = 속성.message_id
        if 메시지id and 기록.있나(메시지id):
            채널.basic_ack(배달.delivery_tag)
            집계["중복"] += 1
            continue

        결과 = 청구.보내기(본문, max(0.5, min(5.0, 마감 - time.monotonic())))
        if 결과 == 201:
            if 메시지id:
                기록.남기기(메시지id)          # 기록 먼저, 그다음 ack
            채널.basic_ack(배달.delivery_tag)
            집계["ack"] += 1
        elif 결과 == 422:
            채널.basic_reject(배달.delivery_tag, requeue=False)
            집계["DLQ"] += 1
        elif 배달.redelivered:
            채널.basic_reject(배달.delivery_tag, requeue=False)
            집계["DLQ"] += 1
        else:
            채널.basic_nack(배달.delivery_tag, requeue=True)
            집계["되돌림"] += 1

    채널.cancel()
    연결.close()
    기록.닫기()
    print("끝:", 집계)


if __name__ == "__main__":
    main()
