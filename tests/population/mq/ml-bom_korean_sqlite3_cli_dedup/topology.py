# -*- coding: utf-8 -*-
# 토폴로지 선언 — 같은 속성으로 다시 선언하면 아무 일도 없으므로 몇 번 돌려도 안전하다.
import os

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()

# 교환기
ch.exchange_declare("eai.claim", exchange_type="direct", durable=True)
ch.exchange_declare("eai.dlx", exchange_type="direct", durable=True)

# 큐 — claim.in 에는 과제에 적힌 DLX 인자 두 개만
ch.queue_declare("claim.in", durable=True, arguments={
    "x-dead-letter-exchange": "eai.dlx",
    "x-dead-letter-routing-key": "claim.dead",
})
ch.queue_declare("claim.dead", durable=True)
# 운영자가 DLQ 에서 골라 다시 흘려 볼 때 쓰는 큐(회사 습관: quorum + 배달 한도)
ch.queue_declare("claim.replay", durable=True, arguments={
    "x-queue-type": "quorum",
    "x-delivery-limit": 3,
})

# 바인딩
ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")

conn.close()
print("토폴로지 선언 완료")
