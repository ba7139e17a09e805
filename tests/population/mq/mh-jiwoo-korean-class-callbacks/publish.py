#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""청구 JSON 파일 하나를 eai.claim 으로 발행한다 (발행 확인 + mandatory).

사용법: python3 publish.py <청구JSON파일>
종료 코드: 0 성공 / 1 사용법·파일 오류 / 2 라우팅 불가 / 3 브로커가 nack
"""
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"


def main(argv):
    if len(argv) != 2:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 1
    path = argv[1]
    with open(path, "rb") as f:
        raw = f.read()  # 본문은 파일 그대로 (바이트 그대로 보낸다)
    try:
        claim = json.loads(raw)
        guid = claim["guid"]
    except (ValueError, KeyError, TypeError) as e:
        print("청구 파일이 이상함: %s (%s)" % (path, e), file=sys.stderr)
        return 1

    props = pika.BasicProperties(
        delivery_mode=2,  # persistent! durable 큐만으로는 부족하다
        message_id=str(guid),
        content_type="application/json",
    )
    url = os.environ.get("EAI_AMQP_URL", DEFAULT_URL)
    conn = pika.BlockingConnection(pika.URLParameters(url))
    try:
        ch = conn.channel()
        ch.confirm_delivery()  # 먼저 켜야 basic_publish 가 확인을 기다린다
        try:
            ch.basic_publish(
                exchange="eai.claim",
                routing_key="claim",
                body=raw,
                properties=props,
                mandatory=True,
            )
        except UnroutableError:
            print("라우팅 불가: eai.claim/claim 에 묶인 큐가 없음", file=sys.stderr)
            return 2
        except NackError:
            print("브로커가 거절(nack)함", file=sys.stderr)
            return 3
        print("발행 완료 message_id=%s" % guid)
        return 0
    finally:
        if conn.is_open:
            conn.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
