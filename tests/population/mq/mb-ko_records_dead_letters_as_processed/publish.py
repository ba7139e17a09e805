# 청구 JSON 을 eai.claim 으로 (키 claim) 발행
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

if len(sys.argv) != 2:
    sys.exit("사용법: python3 publish.py <청구JSON파일>")

with open(sys.argv[1], "rb") as f:
    본문 = f.read()
청구 = json.loads(본문)

conn = pika.BlockingConnection(pika.URLParameters(
    os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = conn.channel()
ch.confirm_delivery()
try:
    ch.basic_publish("eai.claim", "claim", 본문,
                     pika.BasicProperties(content_type="application/json",
                                          delivery_mode=2,
                                          message_id=청구["guid"]),
                     mandatory=True)
except (UnroutableError, NackError) as e:
    conn.close()
    sys.exit(f"발행 실패 ({type(e).__name__}): {청구['guid']}")
conn.close()
print("발행 성공:", 청구["claimId"], 청구["guid"])
