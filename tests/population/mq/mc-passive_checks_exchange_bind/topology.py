#!/usr/bin/env python3
"""Claim topology. Checks each object passively first and only declares what is missing,
so a second run changes nothing. Extras: an ingress exchange bound into eai.claim
(exchange_bind) and an audit copy of every dead letter."""
import os
import sys

import pika
from pika.exceptions import ChannelClosedByBroker

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

EXCHANGES = {
    "eai.claim": "direct",
    "eai.dlx": "direct",
    "eai.ingress": "direct",  # extra: producers of other teams may publish here
}
QUEUES = {
    "claim.in": {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
    "claim.dead": None,
    "claim.dead.audit": {"x-max-length": 10000},  # extra: copy of dead letters for reporting
}
QUEUE_BINDINGS = [
    ("claim.in", "eai.claim", "claim"),
    ("claim.dead", "eai.dlx", "claim.dead"),
    ("claim.dead.audit", "eai.dlx", "claim.dead"),
]
EXCHANGE_BINDINGS = [
    ("eai.claim", "eai.ingress", "claim"),  # destination, source, key
]


class Declarer:
    def __init__(self, conn):
        self.conn = conn
        self.ch = conn.channel()

    def _exists(self, check):
        """Run a passive declare; a 404 closes the channel, so open a new one."""
        try:
            check(self.ch)
            return True
        except ChannelClosedByBroker as e:
            if e.reply_code != 404:
                raise
            self.ch = self.conn.channel()
            return False

    def exchange(self, name, kind):
        if self._exists(lambda ch: ch.exchange_declare(name, passive=True)):
            print(f"exchange {name}: present")
        else:
            self.ch.exchange_declare(name, kind, durable=True)
            print(f"exchange {name}: declared ({kind}, durable)")

    def queue(self, name, args):
        if self._exists(lambda ch: ch.queue_declare(name, passive=True)):
            print(f"queue {name}: present")
        else:
            self.ch.queue_declare(name, durable=True, arguments=args)
            print(f"queue {name}: declared {args or ''}")


def main():
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    d = Declarer(conn)
    for name, kind in EXCHANGES.items():
        d.exchange(name, kind)
    for name, args in QUEUES.items():
        d.queue(name, args)
    for q, x, key in QUEUE_BINDINGS:
        d.ch.queue_bind(q, x, routing_key=key)  # binding twice is a no-op
        print(f"bind {x} -[{key}]-> {q}")
    for dest, src, key in EXCHANGE_BINDINGS:
        d.ch.exchange_bind(destination=dest, source=src, routing_key=key)
        print(f"bind exchange {src} -[{key}]-> {dest}")
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
