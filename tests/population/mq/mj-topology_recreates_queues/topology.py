#!/usr/bin/env python3
"""topology.py - exchanges eai.claim / eai.dlx, queues claim.in (DLX) / claim.dead, bindings.

Note to self: the first version declared claim.in without the DLX arguments; running the
fixed version then died with 406 PRECONDITION_FAILED (inequivalent arg 'x-dead-letter-exchange').
So the queues are deleted first: that way the declaration below is always the one that counts,
and the script can be run any number of times without a 406.
"""
import os

import pika

url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
conn = pika.BlockingConnection(pika.URLParameters(url))
ch = conn.channel()

EXCHANGES = [("eai.claim", "direct"), ("eai.dlx", "direct")]
QUEUES = [
    ("claim.in", {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}),
    ("claim.dead", None),
]
BINDINGS = [("eai.claim", "claim.in", "claim"), ("eai.dlx", "claim.dead", "claim.dead")]

for name, kind in EXCHANGES:
    ch.exchange_declare(exchange=name, exchange_type=kind, durable=True)
    print("exchange", name, kind)

for name, arguments in QUEUES:
    ch.queue_delete(queue=name)          # no 406 if the arguments changed (see above)
    ch.queue_declare(queue=name, durable=True, arguments=arguments)
    print("queue", name, arguments or "")

for exchange, queue, key in BINDINGS:
    ch.queue_bind(queue=queue, exchange=exchange, routing_key=key)
    print("binding", exchange, "->", queue, key)

conn.close()
