"""Declare the claim topology. Declarations are idempotent; safe to run on every deploy."""
import logging
import os
import sys

import pika

log = logging.getLogger("topology")

EXCHANGES = (
    {"exchange": "eai.claim", "exchange_type": "direct", "durable": True},
    {"exchange": "eai.dlx", "exchange_type": "direct", "durable": True},
)
QUEUES = (
    {
        "queue": "claim.in",
        "durable": True,
        "arguments": {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
    },
    {"queue": "claim.dead", "durable": True},
)
BINDINGS = (
    {"queue": "claim.in", "exchange": "eai.claim", "routing_key": "claim"},
    {"queue": "claim.dead", "exchange": "eai.dlx", "routing_key": "claim.dead"},
)


def apply(channel):
    for spec in EXCHANGES:
        channel.exchange_declare(**spec)
    for spec in QUEUES:
        channel.queue_declare(**spec)
    for spec in BINDINGS:
        channel.queue_bind(**spec)


def main():
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    params = pika.URLParameters(url)
    with pika.BlockingConnection(params) as connection:
        apply(connection.channel())
    log.info("topology applied (vhost %s)", params.virtual_host)
    return 0


if __name__ == "__main__":
    sys.exit(main())
