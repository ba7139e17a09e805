# -*- coding: cp949 -*-
# 사용법: python3 publish.py <청구JSON파일>
# 파일 내용을 바이트 그대로 본문으로 보낸다 (다시 직렬화하지 않음).
import json
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

if len(sys.argv) != 2:
    print("사용법: publish.py <청구JSON파일>", file=sys.stderr)
    sys.exit(2)

with open(sys.argv[1], "rb") as f:
    body = f.read()
claim = json.loads(body)   # guid 만 꺼내 쓴다
guid = claim["guid"]

props = pika.BasicProperties(
    delivery_mode=2,                    # persistent
    message_id=guid,
    content_type="application/json",
)

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
ch.confirm_delivery()   # 발행 확인 켜기 (publish 전에!)

rc = 0
try:
    ch.basic_publish(exchange="eai.claim", routing_key="claim", body=body,
                     properties=props, mandatory=True)
    print("발행 확인됨:", guid)
except pika.exceptions.UnroutableError:
    print("라우팅 불가 - 받을 큐가 없음:", guid, file=sys.stderr)
    rc = 3
except pika.exceptions.NackError:
    print("브로커가 거절(nack):", guid, file=sys.stderr)
    rc = 4
finally:
    if conn.is_open:
        conn.close()
sys.exit(rc)
