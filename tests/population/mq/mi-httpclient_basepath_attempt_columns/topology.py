#!/usr/bin/env python3
"""topology for the claim queue. re-runnable (declares are idempotent)."""
import os
import pika

params = pika.URLParameters(os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
with pika.BlockingConnection(params) as conn:
    ch = conn.channel()
    for name in ("eai.claim", "eai.dlx"):
        ch.exchange_declare(name, "direct", durable=True)
    ch.queue_declare("claim.dead", durable=True)
    ch.queue_declare("claim.in", durable=True, arguments={
        "x-dead-letter-routing-key": "claim.dead",
        "x-dead-letter-exchange": "eai.dlx",
    })
    ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")
    ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
print("ok")
