# 2단계: 교환기 2·큐 2·바인딩 2 와 claim.in 의 DLX 인자를 선언한다(두 번 돌려도 안전).
# 선언은 멱등 — 같은 속성으로 다시 선언하면 아무 일도 없다.
import os

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

연결 = pika.BlockingConnection(pika.URLParameters(URL))
ch = 연결.channel()

# 교환기 eai.claim(direct, durable), eai.dlx(direct, durable)
ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
ch.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)

# 큐 claim.in(durable, 인자 x-dead-letter-exchange=eai.dlx, x-dead-letter-routing-key=claim.dead), claim.dead(durable)
ch.queue_declare(
    queue="claim.in",
    durable=True,
    arguments={"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
)
ch.queue_declare(queue="claim.dead", durable=True)

# 바인딩 eai.claim→claim.in(키 claim), eai.dlx→claim.dead(키 claim.dead)
ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")

연결.close()
print("토폴로지 선언 완료")
