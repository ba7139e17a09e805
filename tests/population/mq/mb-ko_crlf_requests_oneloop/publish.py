# 청구 JSON 파일 하나를 eai.claim 으로 발행한다 (발행 확인 + mandatory)
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

if len(sys.argv) < 2:
    print("사용법: python3 publish.py <청구JSON파일>")
    sys.exit(2)

with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
claim = json.loads(text)  # 형식 확인 겸 guid 꺼내기

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.confirm_delivery()  # 발행 확인 켜기

try:
    ch.basic_publish(
        exchange="eai.claim",
        routing_key="claim",
        body=text.encode("utf-8"),  # JSON 그대로
        properties=pika.BasicProperties(
            delivery_mode=2,  # persistent
            message_id=claim["guid"],
            content_type="application/json",
        ),
        mandatory=True,
    )
except UnroutableError:
    print("발행 실패: 라우팅 불가 (받을 큐가 없음)", claim["guid"])
    conn.close()
    sys.exit(1)
except NackError:
    print("발행 실패: 브로커가 거절함 (nack)", claim["guid"])
    conn.close()
    sys.exit(1)

conn.close()
print("발행 완료:", claim["claimId"], claim["guid"])
