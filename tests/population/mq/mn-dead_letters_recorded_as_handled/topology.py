#!/usr/bin/env python3
import os
import pika

params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
with pika.BlockingConnection(params) as connection:
    channel = connection.channel()
    channel.exchange_declare(exchange="eai.claim", exchange_type=pika.exchange_type.ExchangeType.direct, durable=True)
    channel.exchange_declare(exchange="eai.dlx", exchange_type=pika.exchange_type.ExchangeType.direct, durable=True)
    channel.queue_declare(queue="claim.in", durable=True,
                          arguments={"x-dead-letter-exchange": "eai.dlx",
                                     "x-dead-letter-routing-key": "claim.dead"})
    channel.queue_declare(queue="claim.dead", durable=True)
    channel.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
    channel.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")
print("topology declared")
