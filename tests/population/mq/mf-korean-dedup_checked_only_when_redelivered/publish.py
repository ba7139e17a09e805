#!/usr/bin/env python3
# 3단계: publish.py <청구JSON파일>
# JSON 을 그대로 본문으로, eai.claim 에 라우팅 키 claim 으로. persistent, message_id=guid, application/json.
# 발행 확인 + mandatory: 라우팅 불가나 거절이면 0 이 아닌 코드로 끝난다.
import json
import os
import sys

import pika

if len(sys.argv) != 2:
    print("사용법: publish.py <청구JSON파일>", file=sys.stderr)
    sys.exit(2)

with open(sys.argv[1], "rb") as 파일:
    본문 = 파일.read()          # 그대로
청구 = json.loads(본문)

주소 = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
연결 = pika.BlockingConnection(pika.URLParameters(주소))
채널 = 연결.channel()
채널.confirm_delivery()       # 발행 확인을 먼저 켠다

속성 = pika.BasicProperties(
    delivery_mode=2,
    message_id=청구["guid"],
    content_type="application/json",
)

종료코드 = 0
try:
    채널.basic_publish(exchange="eai.claim", routing_key="claim", body=본문,
                       properties=속성, mandatory=True)
    print("발행 완료:", 청구["guid"])
except pika.exceptions.UnroutableError:
    print("라우팅 불가 (UnroutableError)", file=sys.stderr)
    종료코드 = 3
except pika.exceptions.NackError:
    print("브로커가 거절함 (NackError)", file=sys.stderr)
    종료코드 = 4
finally:
    연결.close()
sys.exit(종료코드)
