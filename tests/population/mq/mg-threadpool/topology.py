"""Idempotent declaration of the claim topology (exchanges, queues, bindings)."""
import os
import sys

import pika

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"

EXCHANGES = {"eai.claim": "direct", "eai.dlx": "direct"}
QUEUES = {
    "claim.in": {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
    "claim.dead": {},
}
BINDINGS = [("eai.claim", "claim.in", "claim"), ("eai.dlx", "claim.dead", "claim.dead")]


def main() -> int:
    url = os.environ.get("EAI_AMQP_URL", DEFAULT_URL)
    with pika.BlockingConnection(pika.URLParameters(url)) as connection:
        channel = connection.channel()
        for name, kind in EXCHANGES.items():
            channel.exchange_declare(name, exchange_type=kind, durable=True)
        for name, arguments in QUEUES.items():
            channel.queue_declare(name, durable=True, arguments=arguments or None)
        for exchange, queue, key in BINDINGS:
            channel.queue_bind(queue, exchange, routing_key=key)
    print("topology declared", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
