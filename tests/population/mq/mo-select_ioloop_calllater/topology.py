#!/usr/bin/env python3
"""Step 2: declare the claim topology. Declarations are idempotent, so running twice is fine."""
import os

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

EXCHANGES = [("eai.claim", "direct"), ("eai.dlx", "direct")]
QUEUES = [
    ("claim.in", {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}),
    ("claim.dead", None),
]
BINDINGS = [("claim.in", "eai.claim", "claim"), ("claim.dead", "eai.dlx", "claim.dead")]


def main():
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    for name, kind in EXCHANGES:
        ch.exchange_declare(exchange=name, exchange_type=kind, durable=True)
    for name, args in QUEUES:
        ch.queue_declare(queue=name, durable=True, arguments=args)
    for queue, exchange, key in BINDINGS:
        ch.queue_bind(queue=queue, exchange=exchange, routing_key=key)
    conn.close()
    print("topology ok")


if __name__ == "__main__":
    main()
