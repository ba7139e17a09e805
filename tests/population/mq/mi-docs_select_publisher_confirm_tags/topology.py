#!/usr/bin/env python3
"""Declare the claim topology (exchanges, queues, DLX, bindings). Safe to run again:
exchange_declare / queue_declare / queue_bind are idempotent when the properties match."""
import os

import pika
from pika.exchange_type import ExchangeType

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

CLAIM_IN_ARGS = {
    "x-dead-letter-exchange": "eai.dlx",
    "x-dead-letter-routing-key": "claim.dead",
}


def main() -> int:
    connection = pika.BlockingConnection(pika.URLParameters(URL))
    try:
        channel = connection.channel()
        channel.exchange_declare(exchange="eai.claim", exchange_type=ExchangeType.direct, durable=True)
        channel.exchange_declare(exchange="eai.dlx", exchange_type=ExchangeType.direct, durable=True)
        channel.queue_declare(queue="claim.in", durable=True, arguments=CLAIM_IN_ARGS)
        channel.queue_declare(queue="claim.dead", durable=True)
        channel.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
        channel.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")
    finally:
        connection.close()
    print("topology declared: eai.claim -> claim.in, eai.dlx -> claim.dead")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
