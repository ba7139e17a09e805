#!/usr/bin/env python3
"""Declare exchanges, queues and bindings (idempotent)."""
import os
import sys

import pika

# --- ClaimBus: copied into each script so every script runs on its own ---
DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"


class ClaimBus:
    EXCHANGE = "eai.claim"
    DLX = "eai.dlx"
    IN_QUEUE = "claim.in"
    DEAD_QUEUE = "claim.dead"

    def __init__(self, prefetch=None):
        self.url = os.environ.get("EAI_AMQP_URL", DEFAULT_URL)
        self.connection = pika.BlockingConnection(pika.URLParameters(self.url))
        if prefetch is not None:
            # QoS is a connection-level setting for the consumer: set it once, right after connecting
            self.connection.channel().basic_qos(prefetch_count=prefetch)

    def channel(self):
        return self.connection.channel()

    def close(self):
        if self.connection.is_open:
            self.connection.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
# --- end ClaimBus ---


def main():
    with ClaimBus() as bus:
        ch = bus.channel()
        ch.exchange_declare(ClaimBus.EXCHANGE, "direct", durable=True)
        ch.exchange_declare(ClaimBus.DLX, "direct", durable=True)
        ch.queue_declare(
            ClaimBus.IN_QUEUE,
            durable=True,
            arguments={
                "x-dead-letter-exchange": ClaimBus.DLX,
                "x-dead-letter-routing-key": "claim.dead",
            },
        )
        ch.queue_declare(ClaimBus.DEAD_QUEUE, durable=True)
        ch.queue_bind(ClaimBus.IN_QUEUE, ClaimBus.EXCHANGE, "claim")
        ch.queue_bind(ClaimBus.DEAD_QUEUE, ClaimBus.DLX, "claim.dead")
    print("topology declared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
