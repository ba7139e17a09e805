# -*- coding: utf-8 -*-
# 3단계: 청구 JSON 발행
#   python3 publish.py <청구JSON파일>
#   persistent + message_id=guid + application/json, mandatory 로 보낸다
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

주소 = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def 발행(파일):
    with open(파일, "rb") as f:
        본문 = f.read()
    guid = json.loads(본문)["guid"]

    연결 = pika.BlockingConnection(pika.URLParameters(주소))
    ch = 연결.channel()
    try:
        # mandatory=True: 받을 큐가 없으면 브로커가 돌려준다
        ch.basic_publish(
            exchange="eai.claim",
            routing_key="claim",
            body=본문,
            properties=pika.BasicProperties(
                delivery_mode=2,
                message_id=guid,
                content_type="application/json",
            ),
            mandatory=True,
        )
    finally:
        연결.close()
    return guid


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("사용법: python3 publish.py <청구JSON파일>")
        sys.exit(2)
    try:
        guid = 발행(sys.argv[1])
    except UnroutableError:
        print("[발행] 실패: 라우팅 불가")
        sys.exit(1)
    except NackError:
        print("[발행] 실패: 브로커 거절(nack)")
        sys.exit(1)
    print("[발행] 완료", guid)
