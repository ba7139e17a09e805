#!/usr/bin/env python3
"""Declare the claim topology. Declarations are idempotent, so running twice is fine."""
import os

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

EXCHANGES = [("eai.claim", "direct"), ("eai.dlx", "direct")]
QUEUES = {
    "claim.in": {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
    "claim.dead": None,
}
BINDINGS = [("claim.in", "eai.claim", "claim"), ("claim.dead", "eai.dlx", "claim.dead")]


def main():
    connection = pika.BlockingConnection(pika.URLParameters(URL))
    channel = connection.channel()
    for name, kind in EXCHANGES:
        channel.exchange_declare(exchange=name, exchange_type=kind, durable=True)
        print("exchange", name, kind)
    for name, args in QUEUES.items():
        ok = channel.queue_declare(queue=name, durable=True, arguments=args)
        print("queue", name, "messages:", ok.method.message_count)
    for queue, exchange, key in BINDINGS:
        channel.queue_bind(queue=queue, exchange=exchange, routing_key=key)
        print("bind", exchange, "->", queue, "key", key)
    connection.close()


if __name__ == "__main__":
    main()
