#!/usr/bin/env python3
"""교환기·큐·DLX 선언. 예전에 다른 인자로 만든 큐가 남아 있으면 406 이 나니까, 큐는 지우고 새로 만든다."""

import os

import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
connection = pika.BlockingConnection(pika.URLParameters(url))
channel = connection.channel()

channel.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
channel.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)

for queue in ("claim.in", "claim.dead"):
    channel.queue_delete(queue=queue)  # 깨끗하게 다시 시작

channel.queue_declare(
    queue="claim.in",
    durable=True,
    arguments={"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
)
channel.queue_declare(queue="claim.dead", durable=True)
channel.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
channel.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")

connection.close()
print("topology ready")
