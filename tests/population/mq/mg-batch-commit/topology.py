#!/usr/bin/env python3
"""declare exchanges, queues, DLX and bindings for the claim flow (idempotent)"""
import os
import pika

params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
conn = pika.BlockingConnection(params)
ch = conn.channel()

ch.exchange_declare(exchange="eai.claim", exchange_type=pika.exchange_type.ExchangeType.direct, durable=True)
ch.exchange_declare(exchange="eai.dlx", exchange_type=pika.exchange_type.ExchangeType.direct, durable=True)

ch.queue_declare(queue="claim.in", durable=True,
                 arguments={"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"})
ch.queue_declare(queue="claim.dead", durable=True)

ch.queue_bind(exchange="eai.claim", queue="claim.in", routing_key="claim")
ch.queue_bind(exchange="eai.dlx", queue="claim.dead", routing_key="claim.dead")

conn.close()
print("done")
