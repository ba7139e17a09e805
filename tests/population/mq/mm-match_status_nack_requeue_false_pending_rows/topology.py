#!/usr/bin/env python3
"""Declare the claim topology. Declarations are idempotent, so running this twice is fine."""
from __future__ import annotations

import os

import pika

AMQP_URL: str = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main() -> None:
    with pika.BlockingConnection(pika.URLParameters(AMQP_URL)) as connection:
        channel = connection.channel()
        channel.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
        channel.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)
        channel.queue_declare(
            queue="claim.in",
            durable=True,
            arguments={
                "x-dead-letter-exchange": "eai.dlx",
                "x-dead-letter-routing-key": "claim.dead",
            },
        )
        channel.queue_declare(queue="claim.dead", durable=True)
        channel.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
        channel.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")
    print("topology ok: eai.claim -> claim.in, eai.dlx -> claim.dead")


if __name__ == "__main__":
    main()
