#!/usr/bin/env python3
import os, pika
SPEC = {
    "exchanges": [("eai.dlx", "direct"), ("eai.claim", "direct")],
    "queues": [("claim.dead", {}),
               ("claim.in", {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"})],
    "bindings": [("eai.dlx", "claim.dead", "claim.dead"), ("eai.claim", "claim.in", "claim")],
}
c = pika.BlockingConnection(pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
ch = c.channel()
for n, t in SPEC["exchanges"]: ch.exchange_declare(n, t, durable=True)
for n, a in SPEC["queues"]: ch.queue_declare(n, durable=True, arguments=a or None)
for e, q, k in SPEC["bindings"]: ch.queue_bind(q, e, k)
c.close()
