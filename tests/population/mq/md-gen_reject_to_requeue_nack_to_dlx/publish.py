# 사용법: python3 publish.py 청구.json
import json
import os
import sys

import pika

if len(sys.argv) < 2:
    print("사용법: python3 publish.py 청구.json")
    sys.exit(2)

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
claim = json.loads(text)          # guid 꺼내려고 파싱만 함, 본문은 파일 그대로

conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.confirm_delivery()             # 발행 확인 켜기

props = pika.BasicProperties(
    delivery_mode=2,              # persistent
    message_id=claim["guid"],
    content_type="application/json",
)

code = 0
try:
    ch.basic_publish(exchange="eai.claim", routing_key="claim",
                     body=text.encode("utf-8"), properties=props, mandatory=True)
    print("발행 확인됨:", claim["guid"])
except pika.exceptions.UnroutableError:
    print("라우팅 불가! (claim 키로 묶인 큐 없음)")
    code = 1
except pika.exceptions.NackError:
    print("브로커가 거절(nack)함")
    code = 1

conn.close()
sys.exit(code)
