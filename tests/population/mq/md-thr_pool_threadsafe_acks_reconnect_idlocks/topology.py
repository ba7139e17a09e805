#!/usr/bin/env python3
"""Declare the claim topology. Re-running it is a no-op (same properties)."""
import os
import sys

import pika

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

DLX_ARGS = {
    "x-dead-letter-exchange": "eai.dlx",
    "x-dead-letter-routing-key": "claim.dead",
}


def main():
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    for ex in ("eai.claim", "eai.dlx"):
        ch.exchange_declare(exchange=ex, exchange_type="direct", durable=True)
    ch.queue_declare(queue="claim.in", durable=True, arguments=DLX_ARGS)
    ch.queue_declare(queue="claim.dead", durable=True)
    ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
    ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
