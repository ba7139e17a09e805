#!/usr/bin/env python3
"""Declare exchanges, queues, bindings for the claim flow, then show what is there."""
import os
import pika

params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
conn = pika.BlockingConnection(params)
ch = conn.channel()

ch.exchange_declare("eai.claim", "direct", durable=True)
ch.exchange_declare("eai.dlx", "direct", durable=True)
ch.queue_declare("claim.in", durable=True,
                 arguments={"x-dead-letter-exchange": "eai.dlx",
                            "x-dead-letter-routing-key": "claim.dead"})
ch.queue_declare("claim.dead", durable=True)
ch.queue_bind("claim.in", "eai.claim", "claim")
ch.queue_bind("claim.dead", "eai.dlx", "claim.dead")

for q in ("claim.in", "claim.dead"):
    info = ch.queue_declare(q, passive=True).method
    print(f"{q:<11} ready={info.message_count} consumers={info.consumer_count}")
conn.close()
