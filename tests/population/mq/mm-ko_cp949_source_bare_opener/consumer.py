# -*- coding: cp949 -*-
# 청구 소비자
#   python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 30 [--prefetch 5]
#
# 201  -> 처리 기록 남기고 ack
# 422  -> 업무 거절, reject(requeue=False) 로 DLX
# 503/연결 실패/시간 초과 -> 처음이면 nack(requeue), redelivered 면 DLX
# 이미 처리한 message_id -> 부르지 않고 ack
#
# HTTP 는 urllib 으로 하는데, 기본 opener 는 4xx/5xx 에서 HTTPError 를 던져서
# 상태 코드 분기가 try/except 로 갈라진다. 그래서 HTTPHandler 만 넣은
# opener 를 직접 만들었다 -> 어떤 상태 코드든 그냥 응답으로 돌아온다.
import argparse
import http.client
import json
import logging
import os
import sqlite3
import sys
import time
import urllib.request

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
HTTP_TIMEOUT = 3.0   # 청구 시스템이 멈춰 있어도 이 이상 기다리지 않는다

logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                    format="%(asctime)s %(levelname)s %(message)s")
logging.getLogger("pika").setLevel(logging.WARNING)   # pika 로그가 너무 많다
log = logging.getLogger("소비자")

opener = urllib.request.OpenerDirector()
opener.add_handler(urllib.request.HTTPHandler())


# ---- 처리 기록 (메시지마다 연결을 새로 연다: 단순하고, 죽어도 남는다) ----
def init_db():
    con = sqlite3.connect(DB)
    con.execute("CREATE TABLE IF NOT EXISTS processed ("
                " message_id TEXT PRIMARY KEY,"
                " done_at TEXT NOT NULL)")
    con.commit()
    con.close()


def already_done(mid):
    con = sqlite3.connect(DB, timeout=10)
    try:
        row = con.execute("SELECT 1 FROM processed WHERE message_id = ?", (mid,)).fetchone()
        return row is not None
    finally:
        con.close()


def mark_done(mid):
    con = sqlite3.connect(DB, timeout=10)
    try:
        con.execute("INSERT OR IGNORE INTO processed(message_id, done_at) VALUES (?, datetime('now'))", (mid,))
        con.commit()
    finally:
        con.close()


def guid_of(body):
    try:
        return json.loads(body).get("guid")
    except (ValueError, AttributeError):
        return None


# ---- 청구 시스템 호출: 상태 코드를 돌려주고, 연결 실패/시간 초과면 None ----
def post_claim(base, body, timeout):
    req = urllib.request.Request(base.rstrip("/") + "/v1/claims", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        resp = opener.open(req, timeout=timeout)
        try:
            resp.read()
        finally:
            resp.close()
        return resp.status
    except (OSError, http.client.HTTPException) as e:   # URLError, 시간 초과, 끊김 전부
        log.warning("청구 시스템 호출 실패: %r", e)
        return None


def main():
    ap = argparse.ArgumentParser(description="claim.in 소비자")
    ap.add_argument("--claim", required=True, help="청구 시스템 URL")
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()

    started = time.monotonic()
    deadline = started + args.max_seconds

    init_db()

    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=args.prefetch)   # 소비 시작 전에!

    counts = {"ack": 0, "dlx": 0, "requeue": 0, "dup": 0}

    for method, props, body in ch.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() >= deadline:
            break     # 손에 든 메시지는 ack 안 했으니 연결 닫으면 브로커가 되돌린다
        if method is None:
            continue  # 쉬는 중

        tag = method.delivery_tag
        mid = props.message_id or guid_of(body)   # message_id 가 없으면 본문 guid 로

        if mid and already_done(mid):
            log.info("이미 처리함 %s -> ack 만", mid)
            ch.basic_ack(tag)
            counts["dup"] += 1
            continue

        left = deadline - time.monotonic()
        status = post_claim(args.claim, body, max(0.2, min(HTTP_TIMEOUT, left)))

        if status is None and time.monotonic() >= deadline:
            # 마감 때문에 잘린 호출은 실패로 치지 않는다 -> 그냥 되돌리고 끝
            ch.basic_nack(tag, requeue=True)
            counts["requeue"] += 1
            break

        if status == 201:
            if mid:
                mark_done(mid)        # 기록 먼저, 그 다음 ack
            ch.basic_ack(tag)
            counts["ack"] += 1
            log.info("접수 완료 %s", mid)
        elif status == 422:
            log.info("업무 거절(서류 미비) %s -> DLX", mid)
            ch.basic_reject(tag, requeue=False)
            counts["dlx"] += 1
        else:
            # 503, 연결 실패, 시간 초과, 그 밖의 코드: 한 번은 되돌리고 두 번째면 DLX
            if method.redelivered:
                log.warning("재배달인데 또 실패(%s) %s -> DLX", status, mid)
                ch.basic_reject(tag, requeue=False)
                counts["dlx"] += 1
            else:
                log.warning("일시 오류(%s) %s -> 되돌림", status, mid)
                ch.basic_nack(tag, requeue=True)
                counts["requeue"] += 1

    try:
        conn.close()
    except Exception:
        pass
    log.info("종료 (%.1f초) %s", time.monotonic() - started, counts)


if __name__ == "__main__":
    main()
