#!/usr/bin/env python3
"""Declare the claim topology (exchanges, queues, DLX, bindings). Idempotent."""
import os
import sys

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

EXCHANGES = [
    ("eai.claim", "direct"),
    ("eai.dlx", "direct"),
]
QUEUES = [
    ("claim.in", {"x-dead-letter-exchange": "eai.dlx",
                  "x-dead-letter-routing-key": "claim.dead"}),
    ("claim.dead", None),
]
BINDINGS = [
    # (exchange, queue, routing key)
    ("eai.claim", "claim.in", "claim"),
    ("eai.dlx", "claim.dead", "claim.dead"),
]


def main():
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    try:
        ch = conn.channel()
        for name, kind in EXCHANGES:
            ch.exchange_declare(exchange=name, exchange_type=kind, durable=True)
            print("exchange", name, kind)
        for name, args in QUEUES:
            ch.queue_declare(queue=name, durable=True, arguments=args)
            print("queue", name, args or "")
        for exchange, queue, key in BINDINGS:
            ch.queue_bind(queue=queue, exchange=exchange, routing_key=key)
            print("binding", exchange, "->", queue, "key", key)
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
