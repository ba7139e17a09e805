#!/usr/bin/env python3
"""Step 2: exchanges, queues and bindings for the claim flow (safe to run twice)."""
import os

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()
ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
ch.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)
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
print("topology ok")
