# -*- coding: cp949 -*-
# 토폴로지 선언 - 교환기 2개, 큐 2개, 바인딩 2개
# 같은 속성으로 다시 선언하면 아무 일도 안 일어나므로 두 번 돌려도 된다.
import os
import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()

# 교환기
ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
ch.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)

# 큐 (claim.in 은 DLX 인자 두 개)
ch.queue_declare(queue="claim.in", durable=True, arguments={
    "x-dead-letter-exchange": "eai.dlx",
    "x-dead-letter-routing-key": "claim.dead",
})
ch.queue_declare(queue="claim.dead", durable=True)

# 바인딩
ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")

conn.close()
print("토폴로지 선언 완료")
