"""Declares exchanges, queues and bindings for the claim flow. Idempotent."""
import os

import pika


class Topology:
    def __init__(self, channel):
        self.channel = channel

    def exchanges(self):
        self.channel.exchange_declare(exchange="eai.claim", exchange_type="direct", durable=True)
        self.channel.exchange_declare(exchange="eai.dlx", exchange_type="direct", durable=True)

    def queues(self):
        self.channel.queue_declare(
            queue="claim.in",
            durable=True,
            arguments={"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
        )
        self.channel.queue_declare(queue="claim.dead", durable=True)

    def bindings(self):
        self.channel.queue_bind(queue="claim.in", exchange="eai.claim", routing_key="claim")
        self.channel.queue_bind(queue="claim.dead", exchange="eai.dlx", routing_key="claim.dead")

    def declare(self):
        self.exchanges()
        self.queues()
        self.bindings()


if __name__ == "__main__":
    connection = pika.BlockingConnection(
        pika.URLParameters(os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")))
    Topology(connection.channel()).declare()
    connection.close()
    print("Topology declared.")
