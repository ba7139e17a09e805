#!/usr/bin/env python3
# claim topology. declares are idempotent, so re-running is a no-op.
import os
import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()
for name in ("eai.claim", "eai.dlx"):
    ch.exchange_declare(name, "direct", durable=True)
ch.queue_declare("claim.in", durable=True,
                 arguments={"x-dead-letter-exchange": "eai.dlx",
                            "x-dead-letter-routing-key": "claim.dead"})
ch.queue_declare("claim.dead", durable=True)
ch.queue_bind("claim.in", "eai.claim", "claim")
ch.queue_bind("claim.dead", "eai.dlx", "claim.dead")
conn.close()
print("ok")
