#!/usr/bin/env python3
import os

import pika


def declare_all(ch):
    ch.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
    ch.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)
    ch.queue_declare(queue="claim.in", durable=True, arguments={
        "x-dead-letter-exchange": "eai.dlx",
        "x-dead-letter-routing-key": "claim.dead",
    })
    ch.queue_declare(queue="claim.dead", durable=True)
    ch.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
    ch.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")


if __name__ == "__main__":
    url = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    with pika.BlockingConnection(pika.URLParameters(url)) as conn:
        declare_all(conn.channel())
    print("declared: eai.claim, eai.dlx, claim.in (DLX -> eai.dlx/claim.dead), claim.dead")
