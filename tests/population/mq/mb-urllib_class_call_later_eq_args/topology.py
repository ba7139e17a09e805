import os

import pika


class Topology:
    """claim topology for the mq lab"""

    def __init__(self, url):
        self.url = url

    def apply(self):
        connection = pika.BlockingConnection(pika.URLParameters(self.url))
        channel = connection.channel()
        # dead letter side first, so claim.in never points at a missing exchange
        channel.exchange_declare("eai.dlx", exchange_type="direct", durable=True)
        channel.queue_declare("claim.dead", durable=True)
        channel.queue_bind("claim.dead", "eai.dlx", routing_key="claim.dead")

        channel.exchange_declare("eai.claim", exchange_type="direct", durable=True)
        channel.queue_declare("claim.in", durable=True, arguments={
            "x-dead-letter-exchange": "eai.dlx",
            "x-dead-letter-routing-key": "claim.dead",
        })
        channel.queue_bind("claim.in", "eai.claim", routing_key="claim")
        connection.close()


if __name__ == "__main__":
    Topology(os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")).apply()
    print("topology ok")
