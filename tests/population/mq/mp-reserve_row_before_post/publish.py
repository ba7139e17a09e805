#!/usr/bin/env python3
# publish.py <청구JSON파일> — 발행 확인 + mandatory
import json, os, sys
import pika
from pika.exceptions import NackError, UnroutableError

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
path = sys.argv[1]
body = open(path, "rb").read()          # 본문은 파일 그대로
guid = json.loads(body.decode("utf-8"))["guid"]

conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
ch.confirm_delivery()
code = 0
try:
    ch.basic_publish(
        exchange="eai.claim",
        routing_key="claim",
        body=body,
        properties=pika.BasicProperties(delivery_mode=2, message_id=guid,
                                        content_type="application/json"),
        mandatory=True,
    )
    print("ok", guid)
except UnroutableError:
    print("라우팅 불가", file=sys.stderr)
    code = 3
except NackError:
    print("브로커가 거절(nack)", file=sys.stderr)
    code = 4
conn.close()
sys.exit(code)
