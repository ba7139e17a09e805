#!/usr/bin/env python3
# declare everything; redeclaring with the same properties does nothing
import os, pika

c = pika.BlockingConnection(pika.URLParameters(os.getenv("EAI_AMQP_URL") or "amqp://guest:guest@127.0.0.1:5672/%2F"))
ch = c.channel()
ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True, auto_delete=False, internal=False)
ch.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True, auto_delete=False, internal=False)
ch.queue_declare(queue="claim.in", durable=True, exclusive=False, auto_delete=False,
                 arguments={"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"})
ch.queue_declare(queue="claim.dead", durable=True, exclusive=False, auto_delete=False)
ch.queue_bind(exchange="eai.claim", queue="claim.in", routing_key="claim")
ch.queue_bind(exchange="eai.dlx", queue="claim.dead", routing_key="claim.dead")
c.close()
