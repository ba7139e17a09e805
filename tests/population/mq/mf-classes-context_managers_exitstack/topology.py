#!/usr/bin/env python3
"""Declare exchanges, queues, DLX arguments and bindings (idempotent)."""
from mqkit import Broker


class Topology:
    DLX_ARGS = {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}

    def __init__(self, channel):
        self.ch = channel

    def apply(self):
        self.ch.exchange_declare("eai.claim", exchange_type="direct", durable=True)
        self.ch.exchange_declare("eai.dlx", exchange_type="direct", durable=True)
        self.ch.queue_declare("claim.in", durable=True, arguments=self.DLX_ARGS)
        self.ch.queue_declare("claim.dead", durable=True)
        self.ch.queue_bind("claim.in", "eai.claim", routing_key="claim")
        self.ch.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")


if __name__ == "__main__":
    with Broker() as ch:
        Topology(ch).apply()
