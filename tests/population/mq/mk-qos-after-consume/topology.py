#!/usr/bin/env python3
"""TopologyInstaller: declares the exchanges, queues and bindings of the claim flow.

Declaring is idempotent in RabbitMQ, so running this twice is harmless.
"""
import logging
import os
import sys

import pika

LOG = logging.getLogger("TopologyInstaller")


class AppConfig:
    """Configuration read from the environment, with defaults (like a Spring @Value)."""

    DEFAULT_AMQP_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"

    def __init__(self, env=os.environ):
        self.amqp_url = env.get("EAI_AMQP_URL", self.DEFAULT_AMQP_URL)
        self.log_level = env.get("EAI_LOG_LEVEL", "INFO").upper()


class TopologyInstaller:
    CLAIM_EXCHANGE = "eai.claim"
    DLX_EXCHANGE = "eai.dlx"
    CLAIM_QUEUE = "claim.in"
    DEAD_QUEUE = "claim.dead"
    CLAIM_KEY = "claim"
    DEAD_KEY = "claim.dead"

    def __init__(self, config):
        self.config = config

    def install(self):
        connection = pika.BlockingConnection(pika.URLParameters(self.config.amqp_url))
        try:
            channel = connection.channel()
            for name in (self.CLAIM_EXCHANGE, self.DLX_EXCHANGE):
                channel.exchange_declare(exchange=name, exchange_type="direct", durable=True)
                LOG.info("exchange %s declared", name)
            channel.queue_declare(
                queue=self.CLAIM_QUEUE,
                durable=True,
                arguments={
                    "x-dead-letter-exchange": self.DLX_EXCHANGE,
                    "x-dead-letter-routing-key": self.DEAD_KEY,
                },
            )
            channel.queue_declare(queue=self.DEAD_QUEUE, durable=True)
            LOG.info("queues %s, %s declared", self.CLAIM_QUEUE, self.DEAD_QUEUE)
            channel.queue_bind(queue=self.CLAIM_QUEUE, exchange=self.CLAIM_EXCHANGE, routing_key=self.CLAIM_KEY)
            channel.queue_bind(queue=self.DEAD_QUEUE, exchange=self.DLX_EXCHANGE, routing_key=self.DEAD_KEY)
            LOG.info("bindings declared")
        finally:
            connection.close()


def main():
    config = AppConfig()
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s [%(name)s] %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    try:
        TopologyInstaller(config).install()
    except pika.exceptions.AMQPError as e:
        LOG.error("could not declare topology: %r", e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
