#!/usr/bin/env python3
import os

import pika

params = pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
with pika.BlockingConnection(params) as connection:
    channel = connection.channel()
    channel.exchange_declare("eai.claim", "direct", durable=True)
    channel.exchange_declare("eai.dlx", "direct", durable=True)
    channel.queue_declare("claim.dead", durable=True)
    channel.queue_declare("claim.in", durable=True,
                          arguments={"x-dead-letter-exchange": "eai.dlx",
                                     "x-dead-letter-routing-key": "claim.dead"})
    channel.queue_bind("claim.in", "eai.claim", "claim")
    channel.queue_bind("claim.dead", "eai.dlx", "claim.dead")
print("topology declared")
