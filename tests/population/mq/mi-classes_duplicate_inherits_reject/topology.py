#!/usr/bin/env python3
from common import AmqpScript


class Exchange:
    def __init__(self, name, kind="direct"):
        self.name, self.kind = name, kind

    def declare(self, ch):
        ch.exchange_declare(exchange=self.name, exchange_type=self.kind, durable=True)


class Queue:
    arguments = None

    def __init__(self, name):
        self.name = name

    def declare(self, ch):
        ch.queue_declare(queue=self.name, durable=True, arguments=self.arguments)


class DeadLetteredQueue(Queue):
    def __init__(self, name, dlx, dead_key):
        super().__init__(name)
        self.arguments = {"x-dead-letter-exchange": dlx, "x-dead-letter-routing-key": dead_key}


class Binding:
    def __init__(self, exchange, queue, key):
        self.exchange, self.queue, self.key = exchange, queue, key

    def declare(self, ch):
        ch.queue_bind(queue=self.queue, exchange=self.exchange, routing_key=self.key)


class Topology(AmqpScript):
    ITEMS = [
        Exchange("eai.claim"),
        Exchange("eai.dlx"),
        DeadLetteredQueue("claim.in", "eai.dlx", "claim.dead"),
        Queue("claim.dead"),
        Binding("eai.claim", "claim.in", "claim"),
        Binding("eai.dlx", "claim.dead", "claim.dead"),
    ]

    def run(self):
        for item in self.ITEMS:
            item.declare(self.channel)
            print("declared", type(item).__name__, getattr(item, "name", ""))


if __name__ == "__main__":
    with Topology() as t:
        t.run()
