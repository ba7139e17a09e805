#!/usr/bin/env python3
"""topology.py - declare the claim topology (idempotent: same properties every run).

eai.claim (direct) --claim--> claim.in --(DLX eai.dlx, key claim.dead)--> claim.dead

claim.dead is a quorum queue: at work every DLQ is quorum (replicated, durable by
definition, poison messages must survive a node loss). Quorum queues are always durable,
so "claim.dead (durable)" still holds. claim.in stays a classic queue with exactly the
two DLX arguments of the lab.
"""
import os

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

EXCHANGES = [
    ("eai.claim", "direct"),
    ("eai.dlx", "direct"),
]
QUEUES = [
    ("claim.in", {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}),
    ("claim.dead", {"x-queue-type": "quorum"}),
]
BINDINGS = [
    ("claim.in", "eai.claim", "claim"),
    ("claim.dead", "eai.dlx", "claim.dead"),
]


def main():
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    try:
        ch = conn.channel()
        for name, kind in EXCHANGES:
            ch.exchange_declare(exchange=name, exchange_type=kind, durable=True)
            print(f"exchange {name} ({kind}, durable)")
        for name, args in QUEUES:
            ok = ch.queue_declare(queue=name, durable=True, arguments=args)
            print(f"queue {name} {args} messages={ok.method.message_count}")
        for queue, exchange, key in BINDINGS:
            ch.queue_bind(queue=queue, exchange=exchange, routing_key=key)
            print(f"binding {exchange} -> {queue} [{key}]")
    finally:
        conn.close()


if __name__ == "__main__":
    main()
