#!/usr/bin/env python3
"""Declares the claim topology. Idempotent: same properties -> no-op on the broker."""
import logging
import os
import sys

import pika

log = logging.getLogger("topology")

AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


class ExchangeSpec:
    def __init__(self, name, kind="direct"):
        self.name, self.kind = name, kind

    def apply(self, ch):
        ch.exchange_declare(exchange=self.name, exchange_type=self.kind, durable=True, auto_delete=False)


class QueueSpec:
    def __init__(self, name, arguments=None):
        self.name, self.arguments = name, arguments

    def apply(self, ch):
        ch.queue_declare(queue=self.name, durable=True, exclusive=False, auto_delete=False, arguments=self.arguments)


class BindingSpec:
    def __init__(self, exchange, queue, key):
        self.exchange, self.queue, self.key = exchange, queue, key

    def apply(self, ch):
        ch.queue_bind(queue=self.queue, exchange=self.exchange, routing_key=self.key)


TOPOLOGY = [
    ExchangeSpec("eai.claim"),
    ExchangeSpec("eai.dlx"),
    QueueSpec("claim.in", {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}),
    QueueSpec("claim.dead"),
    BindingSpec("eai.claim", "claim.in", "claim"),
    BindingSpec("eai.dlx", "claim.dead", "claim.dead"),
]


def main():
    logging.basicConfig(level=os.getenv("LOG_LEVEL", "INFO"), format="%(asctime)s %(levelname)-5s %(name)s - %(message)s")
    logging.getLogger("pika").setLevel(logging.ERROR)
    conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    try:
        ch = conn.channel()
        for spec in TOPOLOGY:
            spec.apply(ch)
            log.info("declared %s %s", type(spec).__name__, vars(spec))
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
