#!/usr/bin/env python3
# topology.py -- idempotent declarations for the claim pipeline
import os
import sys

import pika

AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

def declare(ch):
    ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
    ch.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)
    ch.queue_declare(queue="claim.in", durable=True, arguments={
        "x-dead-letter-exchange": "eai.dlx",
        "x-dead-letter-routing-key": "claim.dead",
    })
    ch.queue_declare(queue="claim.dead", durable=True, arguments={"x-queue-mode": "lazy"})
    ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
    ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")

if __name__ == "__main__":
    with pika.BlockingConnection(pika.URLParameters(AMQP_URL)) as conn:
        declare(conn.channel())
    print("topology declared", file=sys.stderr)
