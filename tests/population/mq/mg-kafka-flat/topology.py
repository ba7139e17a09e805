#!/usr/bin/env python3
# topology for the claim flow. re-declaring with the same properties is a no-op, so this is rerunnable.
# every flag spelled out (the defaults too) so the declaration documents itself.
import os
import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

conn = pika.BlockingConnection(pika.URLParameters(URL))
ch = conn.channel()

ch.exchange_declare("eai.claim", exchange_type="direct", durable=True, auto_delete=False, internal=False)
ch.exchange_declare("eai.dlx", exchange_type="direct", durable=True, auto_delete=False, internal=False)

ch.queue_declare("claim.dead", durable=True, exclusive=False, auto_delete=False, arguments={})
ch.queue_declare("claim.in", durable=True, exclusive=False, auto_delete=False, arguments={
    "x-dead-letter-exchange": "eai.dlx",
    "x-dead-letter-routing-key": "claim.dead",
})

ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")
ch.queue_bind("claim.in", "eai.claim", routing_key="claim")

conn.close()
print("topology ok")
