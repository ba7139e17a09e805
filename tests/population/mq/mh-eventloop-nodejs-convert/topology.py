#!/usr/bin/env python3
"""Declare the claim topology. Idempotent: same properties -> no-op on a second run."""
import logging
import os

import pika

log = logging.getLogger("topology")

AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def declare(ch: "pika.adapters.blocking_connection.BlockingChannel") -> None:
    # exchanges first, queues second, bindings last (a bind needs both ends)
    ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
    ch.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)

    ch.queue_declare(
        queue="claim.in",
        durable=True,
        arguments={
            "x-dead-letter-exchange": "eai.dlx",
            "x-dead-letter-routing-key": "claim.dead",
        },
    )
    ch.queue_declare(queue="claim.dead", durable=True)

    ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
    ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    with pika.BlockingConnection(pika.URLParameters(AMQP_URL)) as conn:
        declare(conn.channel())
    log.info("topology declared")
