# -*- coding: utf-8 -*-
# 사용법: python3 publish.py <청구JSON파일>
# 발행 확인 + mandatory. 확인(ack)을 받았을 때만 0 으로 끝난다.
import json
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

if len(sys.argv) != 2:
    print("사용법: publish.py <청구JSON파일>", file=sys.stderr)
    sys.exit(64)

본문 = open(sys.argv[1], "rb").read()      # 그대로 본문으로
청구 = json.loads(본문)

속성 = pika.BasicProperties(
    delivery_mode=2,                      # persistent
    message_id=청구["guid"],
    content_type="application/json",
    headers={"청구번호": 청구.get("claimId"), "x-retry-budget": 1},
)

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
ch.confirm_delivery()
종료코드 = 0
try:
    ch.basic_publish(exchange="eai.claim", routing_key="claim", body=본문, properties=속성, mandatory=True)
    print("발행 확인:", 청구["guid"])
except pika.exceptions.UnroutableError:
    print("라우팅 불가: eai.claim 에 claim 키로 묶인 큐가 없음", file=sys.stderr)
    종료코드 = 1
except pika.exceptions.NackError:
    print("브로커가 거절(nack)함", file=sys.stderr)
    종료코드 = 1
conn.close()
sys.exit(종료코드)
