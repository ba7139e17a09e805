#!/usr/bin/env python3
"""Declare the claim topology. Idempotent: same properties => no-op on a second run."""
import os

import pika

EXCHANGES = [("eai.claim", "direct"), ("eai.dlx", "direct")]
QUEUES = [
    ("claim.in", {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}),
    ("claim.dead", None),
]
BINDINGS = [("eai.claim", "claim.in", "claim"), ("eai.dlx", "claim.dead", "claim.dead")]


def main():
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    conn = pika.BlockingConnection(pika.URLParameters(url))
    ch = conn.channel()
    for name, kind in EXCHANGES:
        ch.exchange_declare(exchange=name, exchange_type=kind, durable=True)
    for name, qargs in QUEUES:
        ch.queue_declare(queue=name, durable=True, arguments=qargs)
    for exchange, queue, key in BINDINGS:
        ch.queue_bind(queue=queue, exchange=exchange, routing_key=key)
    conn.close()


if __name__ == "__main__":
    main()
