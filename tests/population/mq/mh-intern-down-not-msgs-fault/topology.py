#!/usr/bin/env python3
# topology.py - claim 흐름의 교환기/큐/바인딩 (idempotent declare)
import os
import sys

import pika


class Topology:
    def __init__(self, url):
        self.url = url

    def apply(self):
        conn = pika.BlockingConnection(pika.URLParameters(self.url))
        ch = conn.channel()
        ch.exchange_declare("eai.claim", exchange_type="direct", durable=True)
        ch.exchange_declare("eai.dlx", exchange_type="direct", durable=True)
        ch.queue_declare(
            "claim.in",
            durable=True,
            arguments={"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
        )
        ch.queue_declare("claim.dead", durable=True)
        ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
        ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")
        conn.close()


if __name__ == "__main__":
    Topology(os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")).apply()
    print("topology OK")
    sys.exit(0)
