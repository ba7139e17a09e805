# 토폴로지 선언 (여러 번 돌려도 괜찮음 - 같은 속성으로 재선언하면 아무 일 없음)
import os

import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()

# 청구 교환기
ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
# DLX: 블로그 예제처럼 fanout 으로. 죽은 메시지는 라우팅 키 상관없이 전부 claim.dead 로 가면 되니까
ch.exchange_declare(exchange="eai.dlx", exchange_type="fanout", durable=True)

ch.queue_declare(
    queue="claim.in",
    durable=True,
    arguments={
        "x-dead-letter-exchange": "eai.dlx",
        "x-dead-letter-routing-key": "claim.dead",
    },
)
ch.queue_declare(queue="claim.dead", durable=True)

ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")

conn.close()
print("토폴로지 OK")
