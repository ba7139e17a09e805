# 3단계: publish.py <청구JSON파일>
# JSON 을 그대로 본문으로, eai.claim 에 라우팅 키 claim 으로 발행한다.
# persistent(delivery_mode 2), message_id 는 JSON 의 guid, content_type 은 application/json.
# 발행 확인을 켜고 mandatory 로 보내, 라우팅 불가나 거절이면 0 이 아닌 코드로 끝난다.
import json
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

if len(sys.argv) != 2:
    print("사용법: publish.py <청구JSON파일>", file=sys.stderr)
    sys.exit(2)

with open(sys.argv[1], "rb") as f:
    본문 = f.read()  # 그대로
청구 = json.loads(본문)

연결 = pika.BlockingConnection(pika.URLParameters(URL))
ch = 연결.channel()
ch.confirm_delivery()  # 먼저 부르면 basic_publish 가 브로커의 확인을 기다린다
try:
    ch.basic_publish(
        exchange="eai.claim",
        routing_key="claim",
        body=본문,
        properties=pika.BasicProperties(
            delivery_mode=2,
            message_id=청구["guid"],
            content_type="application/json",
        ),
        mandatory=True,
    )
except pika.exceptions.UnroutableError:
    print("라우팅 불가:", 청구["guid"], file=sys.stderr)
    sys.exit(1)
except pika.exceptions.NackError:
    print("거절(nack):", 청구["guid"], file=sys.stderr)
    sys.exit(1)
finally:
    if 연결.is_open:
        연결.close()

print("발행 확인:", 청구["guid"])
