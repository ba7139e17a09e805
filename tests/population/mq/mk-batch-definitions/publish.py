#!/usr/bin/env python3
"""publish.py CLAIM_JSON  -- publish one claim, confirmed, mandatory.

exit 0 confirmed | 1 bad input | 2 unroutable | 3 nacked | 4 broker/connection error
"""
import json
import logging
import os
import sys

import pika

LOGGER = logging.getLogger("publish")


class ClaimMessage:
    def __init__(self, raw):
        self.raw = raw
        self.document = json.loads(raw)
        self.guid = self.document["guid"]

    def properties(self):
        return pika.BasicProperties(
            content_type="application/json",
            delivery_mode=pika.spec.PERSISTENT_DELIVERY_MODE,
            message_id=str(self.guid),
        )


class ReliablePublisher:
    EXCHANGE = os.environ.get("EAI_CLAIM_EXCHANGE", "eai.claim")
    ROUTING_KEY = os.environ.get("EAI_CLAIM_KEY", "claim")

    def __init__(self, url):
        self.url = url

    def publish(self, message):
        connection = pika.BlockingConnection(pika.URLParameters(self.url))
        try:
            channel = connection.channel()
            channel.confirm_delivery()
            channel.basic_publish(self.EXCHANGE, self.ROUTING_KEY, message.raw, message.properties(), mandatory=True)
        finally:
            if connection.is_open:
                connection.close()


def main(argv):
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("pika").setLevel(logging.WARNING)
    if len(argv) != 2:
        LOGGER.error("usage: %s CLAIM_JSON", argv[0])
        return 1
    try:
        with open(argv[1], "rb") as f:
            message = ClaimMessage(f.read())
    except (OSError, ValueError, KeyError, TypeError) as e:
        LOGGER.error("cannot read %s: %r", argv[1], e)
        return 1
    url = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    try:
        ReliablePublisher(url).publish(message)
    except pika.exceptions.UnroutableError:
        LOGGER.error("returned by the broker: no route for %s", ReliablePublisher.ROUTING_KEY)
        return 2
    except pika.exceptions.NackError:
        LOGGER.error("nacked by the broker")
        return 3
    except pika.exceptions.AMQPError as e:
        LOGGER.error("broker error: %r", e)
        return 4
    LOGGER.info("confirmed message_id=%s", message.guid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
