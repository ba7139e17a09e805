#!/usr/bin/env python3
# queues first, then exchanges, then bindings -- declare is idempotent, so re-running is harmless
import os
import pika

params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
with pika.BlockingConnection(params) as conn:
    ch = conn.channel()
    ch.queue_declare("claim.dead", durable=True)
    ch.queue_declare("claim.in", durable=True, arguments={
        "x-dead-letter-exchange": "eai.dlx",
        "x-dead-letter-routing-key": "claim.dead",
    })
    ch.exchange_declare("eai.dlx", exchange_type="direct", durable=True, auto_delete=False)
    ch.exchange_declare("eai.claim", exchange_type="direct", durable=True, auto_delete=False)
    ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")
    ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
print("declared eai.claim, eai.dlx, claim.in, claim.dead + bindings")
