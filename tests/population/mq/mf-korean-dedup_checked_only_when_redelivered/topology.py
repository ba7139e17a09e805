#!/usr/bin/env python3
# 2단계: 교환기·큐·DLX 선언. 두 번 돌려도 오류가 없어야 한다 (같은 속성으로 다시 선언하면 아무 일도 없음).
import os

import pika

주소 = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

연결 = pika.BlockingConnection(pika.URLParameters(주소))
채널 = 연결.channel()

# 교환기 eai.claim(direct, durable), eai.dlx(direct, durable)
채널.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
채널.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)

# 큐 claim.in(durable, 인자 x-dead-letter-exchange=eai.dlx, x-dead-letter-routing-key=claim.dead), claim.dead(durable)
채널.queue_declare(
    queue="claim.in",
    durable=True,
    arguments={"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
)
채널.queue_declare(queue="claim.dead", durable=True)

# 바인딩 eai.claim→claim.in(키 claim), eai.dlx→claim.dead(키 claim.dead)
채널.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
채널.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")

연결.close()
print("토폴로지 선언 완료")
