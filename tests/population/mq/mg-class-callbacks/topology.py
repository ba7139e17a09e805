"""Declares the claim topology. Declarations are idempotent, so running it twice is fine."""
import os

import pika


class Topology:
    EXCHANGES = [("eai.claim", "direct"), ("eai.dlx", "direct")]
    QUEUES = {
        "claim.in": {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
        "claim.dead": None,
    }
    BINDINGS = [("claim.in", "eai.claim", "claim"), ("claim.dead", "eai.dlx", "claim.dead")]

    def __init__(self, url):
        self.connection = pika.BlockingConnection(pika.URLParameters(url))
        self.channel = self.connection.channel()

    def declare(self):
        for name, kind in self.EXCHANGES:
            self.channel.exchange_declare(exchange=name, exchange_type=kind, durable=True)
            print(f"exchange {name} ({kind}) ok")
        for name, args in self.QUEUES.items():
            self.channel.queue_declare(queue=name, durable=True, arguments=args)
            print(f"queue {name} ok")
        for queue, exchange, key in self.BINDINGS:
            self.channel.queue_bind(queue=queue, exchange=exchange, routing_key=key)
            print(f"binding {exchange} -> {queue} [{key}] ok")

    def close(self):
        self.connection.close()


if __name__ == "__main__":
    topology = Topology(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F"))
    try:
        topology.declare()
    finally:
        topology.close()
