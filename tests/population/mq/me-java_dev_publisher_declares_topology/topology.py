"""ClaimTopology: declares exchanges, queues and bindings (idempotent, like Spring's RabbitAdmin)."""
import logging
import os
import sys

import pika

LOG = logging.getLogger("ClaimTopology")


class AmqpSettings:
    DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"

    def __init__(self):
        self.url = os.environ.get("EAI_AMQP_URL", self.DEFAULT_URL)

    def open_connection(self):
        return pika.BlockingConnection(pika.URLParameters(self.url))


class ClaimTopology:
    CLAIM_EXCHANGE = "eai.claim"
    DEAD_LETTER_EXCHANGE = "eai.dlx"
    CLAIM_QUEUE = "claim.in"
    DEAD_QUEUE = "claim.dead"
    CLAIM_ROUTING_KEY = "claim"
    DEAD_ROUTING_KEY = "claim.dead"

    def __init__(self, channel):
        self._channel = channel

    def declare(self):
        ch = self._channel
        ch.exchange_declare(exchange=self.CLAIM_EXCHANGE, exchange_type="direct", durable=True)
        ch.exchange_declare(exchange=self.DEAD_LETTER_EXCHANGE, exchange_type="direct", durable=True)
        ch.queue_declare(
            queue=self.CLAIM_QUEUE,
            durable=True,
            arguments={
                "x-dead-letter-exchange": self.DEAD_LETTER_EXCHANGE,
                "x-dead-letter-routing-key": self.DEAD_ROUTING_KEY,
            },
        )
        ch.queue_declare(queue=self.DEAD_QUEUE, durable=True)
        ch.queue_bind(queue=self.CLAIM_QUEUE, exchange=self.CLAIM_EXCHANGE, routing_key=self.CLAIM_ROUTING_KEY)
        ch.queue_bind(queue=self.DEAD_QUEUE, exchange=self.DEAD_LETTER_EXCHANGE, routing_key=self.DEAD_ROUTING_KEY)
        LOG.info("Topology declared: %s, %s, %s, %s", self.CLAIM_EXCHANGE, self.DEAD_LETTER_EXCHANGE,
                 self.CLAIM_QUEUE, self.DEAD_QUEUE)


def configure_logging():
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(levelname)-5s [%(threadName)s] %(name)s - %(message)s",
        stream=sys.stderr,
    )


def main():
    configure_logging()
    connection = AmqpSettings().open_connection()
    try:
        ClaimTopology(connection.channel()).declare()
    finally:
        connection.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
