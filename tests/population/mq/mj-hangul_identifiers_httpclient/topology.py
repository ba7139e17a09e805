#!/usr/bin/env python3
# 토폴로지 선언: 교환기 2, 큐 2, 바인딩 2 (두 번 돌려도 안전 — 같은 속성이면 재선언은 아무 일도 없다)
import os
import pika

주소 = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
연결 = pika.BlockingConnection(pika.URLParameters(주소))
채널 = 연결.channel()

for 교환기 in ("eai.claim", "eai.dlx"):
    채널.exchange_declare(exchange=교환기, exchange_type="direct", durable=True)

채널.queue_declare(
    queue="claim.in",
    durable=True,
    arguments={"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
)
채널.queue_declare(queue="claim.dead", durable=True)

채널.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
채널.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")

연결.close()
print("토폴로지 완료")
