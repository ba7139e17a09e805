# 토폴로지 선언 (두 번 돌려도 괜찮음 - 같은 속성이면 아무 일 없음)
import os
import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()

# 교환기
ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
ch.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)

# 큐 (claim.in 에 DLX 인자 두 개)
ch.queue_declare(queue="claim.in", durable=True,
                 arguments={"x-dead-letter-exchange": "eai.dlx",
                            "x-dead-letter-routing-key": "claim.dead"})
ch.queue_declare(queue="claim.dead", durable=True)

# 바인딩
ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")

print("토폴로지 완료")
conn.close()
