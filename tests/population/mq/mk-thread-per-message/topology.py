#!/usr/bin/env python3
import logging
import os
import sys

import pika

logger = logging.getLogger("eai.mq.Topology")


class Topology(object):
    """All names in one place (constants, like a Java interface)."""

    EXCHANGES = (("eai.claim", "direct"), ("eai.dlx", "direct"))
    QUEUES = (
        ("claim.in", {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"}),
        ("claim.dead", None),
    )
    BINDINGS = (("eai.claim", "claim.in", "claim"), ("eai.dlx", "claim.dead", "claim.dead"))

    def __init__(self, url):
        self.url = url

    def declare(self):
        with pika.BlockingConnection(pika.URLParameters(self.url)) as connection:
            channel = connection.channel()
            for name, kind in self.EXCHANGES:
                channel.exchange_declare(name, exchange_type=kind, durable=True)
            for name, arguments in self.QUEUES:
                ok = channel.queue_declare(name, durable=True, arguments=arguments)
                logger.info("queue %s: %d message(s) waiting", name, ok.method.message_count)
            for exchange, queue, key in self.BINDINGS:
                channel.queue_bind(queue, exchange, routing_key=key)
        logger.info("topology declared")


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    url = os.environ.get("EAI_AMQP_URL") or "amqp://guest:guest@127.0.0.1:5672/%2F"
    try:
        Topology(url).declare()
    except pika.exceptions.ChannelClosedByBroker as e:
        # 406 PRECONDITION_FAILED: the queue exists with other arguments -> fix by hand
        logger.error("broker refused a declaration: %s %s", e.reply_code, e.reply_text)
        sys.exit(1)
    except pika.exceptions.AMQPConnectionError as e:
        logger.error("cannot connect to %s: %r", url, e)
        sys.exit(1)
