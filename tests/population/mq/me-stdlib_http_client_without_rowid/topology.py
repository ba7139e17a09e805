#!/usr/bin/env python3
# topology.py - exchanges, queues, bindings for the claim flow (idempotent)
import os
import sys

import pika


def declare(ch):
    ch.exchange_declare("eai.claim", exchange_type="direct", durable=True)
    ch.exchange_declare("eai.dlx", exchange_type="direct", durable=True)
    ch.queue_declare(
        "claim.in",
        durable=True,
        arguments={
            "x-dead-letter-exchange": "eai.dlx",
            "x-dead-letter-routing-key": "claim.dead",
        },
    )
    ch.queue_declare("claim.dead", durable=True)
    ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
    ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")


if __name__ == "__main__":
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    connection = pika.BlockingConnection(pika.URLParameters(url))
    try:
        declare(connection.channel())
    finally:
        connection.close()
    print("topology ok", file=sys.stderr)
