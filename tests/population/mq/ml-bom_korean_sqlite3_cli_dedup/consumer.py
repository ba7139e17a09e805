# -*- coding: utf-8 -*-
# 사용법: python3 consumer.py --claim <청구시스템URL> --max-seconds <초> [--prefetch N]
#
# 처리 기록은 sqlite3 명령행 도구로 남긴다(회사에서 운영자가 같은 명령으로 들여다본다).
# 기록은 201 뒤에만, ack 보다 먼저.
import argparse
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_제한 = 5.0

스키마 = """
CREATE TABLE IF NOT EXISTS processed (
    message_id TEXT PRIMARY KEY,
    처리시각   TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX IF NOT EXISTS processed_시각 ON processed(처리시각);
"""


def sql(문):
    """sqlite3 CLI 로 한 번 실행하고 출력(str)을 돌려준다. 실패하면 예외."""
    r = subprocess.run(["sqlite3", "-batch", "-bail", DB], input=문, capture_output=True,
                       text=True, check=True)
    return r.stdout


def 따옴표(s):
    return "'" + s.replace("'", "''") + "'"


def 처리했나(mid):
    return sql(f"SELECT count(*) FROM processed WHERE message_id = {따옴표(mid)};").strip() != "0"


def 기록(mid):
    sql(f"INSERT OR IGNORE INTO processed(message_id) VALUES ({따옴표(mid)});")


def 보내기(주소, 본문, 제한):
    """(상태코드 | None, 마감에잘림)"""
    요청 = urllib.request.Request(주소, data=본문, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(요청, timeout=제한) as 응답:
            return 응답.status, False
    except urllib.error.HTTPError as e:
        return e.code, False
    except Exception as e:  # 연결 실패, 시간 초과 …
        시간초과 = isinstance(getattr(e, "reason", e), TimeoutError)
        return None, 시간초과 and 제한 < HTTP_제한


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    a = p.parse_args()
    마감 = time.monotonic() + a.max_seconds
    주소 = a.claim.rstrip("/") + "/v1/claims"

    sql(스키마)
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=a.prefetch)     # 소비 시작 전에

    집계 = {}
    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        남은 = 마감 - time.monotonic()
        if 남은 <= 0:
            break
        if method is None:
            continue
        mid = props.message_id
        # DLQ 에서 다시 흘려 보낸 메시지면 x-death 가 붙어 있다 — 기록만 하고 판단에는 안 쓴다
        if props.headers and "x-death" in props.headers:
            print("x-death 있음(다시 흘린 메시지):", mid, file=sys.stderr)
        if mid and 처리했나(mid):
            ch.basic_ack(method.delivery_tag)
            결과 = "중복-ack"
        else:
            상태, 잘림 = 보내기(주소, body, min(HTTP_제한, 남은))
            if 잘림:
                break                              # 마감이 끊은 호출: ack 안 함 → 닫으면 돌아간다
            if 상태 == 201:
                if mid:
                    기록(mid)
                ch.basic_ack(method.delivery_tag)
                결과 = "성공"
            elif 상태 == 422:
                ch.basic_reject(method.delivery_tag, requeue=False)
                결과 = "업무거절-DLX"
            elif method.redelivered:
                ch.basic_reject(method.delivery_tag, requeue=False)
                결과 = "재실패-DLX"
            else:
                ch.basic_nack(method.delivery_tag, requeue=True)
                결과 = "되돌림"
        집계[결과] = 집계.get(결과, 0) + 1

    ch.cancel()
    conn.close()
    print(집계)


if __name__ == "__main__":
    main()
