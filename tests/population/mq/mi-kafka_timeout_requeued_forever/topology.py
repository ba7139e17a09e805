#!/usr/bin/env python3
"""Like creating topics before producing: declare exchanges ("topics"), queues and the DLX
("dead letter topic"). Idempotent, like kafka-topics --create --if-not-exists."""
import os

import pika

BOOTSTRAP = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

TOPOLOGY = {
    "exchanges": [("eai.claim", "direct"), ("eai.dlx", "direct")],
    "queues": [
        ("claim.in", {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}),
        ("claim.dead", None),
    ],
    "bindings": [("eai.claim", "claim.in", "claim"), ("eai.dlx", "claim.dead", "claim.dead")],
}

admin = pika.BlockingConnection(pika.URLParameters(BOOTSTRAP))
ch = admin.channel()
for name, kind in TOPOLOGY["exchanges"]:
    ch.exchange_declare(exchange=name, exchange_type=kind, durable=True)
for name, args in TOPOLOGY["queues"]:
    ch.queue_declare(queue=name, durable=True, arguments=args)
for src, dst, key in TOPOLOGY["bindings"]:
    ch.queue_bind(queue=dst, exchange=src, routing_key=key)
admin.close()
print("created (if not exists):", [e for e, _ in TOPOLOGY["exchanges"]], [q for q, _ in TOPOLOGY["queues"]])
